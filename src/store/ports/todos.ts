import type { Todo } from '../../domain/todo.js';

export interface TodoQuery {
  userId: string;
  completed?: boolean;
  dueBefore?: Date;
  limit?: number;
  /** @default false */
  live?: boolean;
}

/**
 * What an update may change; a key present with `undefined` clears the field (a repeat ended, a due
 * time removed). A new reminder time re-arms the reminder: not reminded (unless `reminded` is
 * given), its failed attempts and backoff cleared.
 */
export type TodoChanges = Partial<Pick<Todo, 'completed' | 'completedAt' | 'reminded' | 'dueAt' | 'remindAt' | 'content' | 'repeat'>>;

/** A repeating todo's next occurrence, set with the delivery of this one's reminder. */
export interface NextOccurrence {
  dueAt: Date;
  remindAt: Date;
}

/** How a recorded delivery settles its todo. */
export interface DeliverySettlement {
  /** A repeating todo moves to this occurrence instead of being marked reminded. */
  next?: NextOccurrence;
  /**
   * The reminder time delivered: when the todo was moved meanwhile (its reminder time is no longer
   * this), the delivery is recorded and the todo left as it is, its new reminder still to come.
   */
  of?: Date;
}

/** Todos and their reminder deliveries (delivered once: a delivery id is recorded at most once). */
export interface TodosPort {
  insertTodo(todo: Todo): Promise<void>;
  /**
   * The user's todos, earliest due first. `live`: only those whose memory is not deleted (a todo
   * whose memory the user or the model deleted is withdrawn until the memory is restored).
   */
  listTodos(query: TodoQuery): Promise<Todo[]>;
  updateTodo(userId: string, id: string, changes: TodoChanges): Promise<Todo>;
  deleteTodo(userId: string, id: string): Promise<void>;
  /** Open todos whose reminder time has come and that are due for a (re)try (across users); none whose memory is deleted. */
  dueReminders(now: Date, limit: number): Promise<Todo[]>;
  /**
   * Records a delivery and the reminded mark in one step; false when this delivery id was recorded
   * before. With `next` (a repeating todo) the todo moves to that occurrence instead, not reminded
   * yet, its failed attempts cleared. With `of`, only a todo still reminded at that time is settled.
   */
  recordDelivery(userId: string, todoId: string, deliveryId: string, at: Date, settle?: DeliverySettlement): Promise<boolean>;
  recordDeliveryFailure(userId: string, todoId: string, error: string, nextAt: Date): Promise<void>;
  /** The deliveries recorded for a todo, oldest first (for `engram migrate`). */
  deliveriesOf(userId: string, todoId: string): Promise<Array<{ id: string; at: Date }>>;
}
