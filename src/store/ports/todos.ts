import type { Todo } from '../../domain/todo.js';

/** Todos and their reminder deliveries (delivered once: a delivery id is recorded at most once). */
export interface TodosPort {
  insertTodo(todo: Todo): Promise<void>;
  listTodos(query: { userId: string; completed?: boolean; dueBefore?: Date; limit?: number }): Promise<Todo[]>;
  updateTodo(userId: string, id: string, changes: Partial<Pick<Todo, 'completed' | 'completedAt' | 'reminded' | 'dueAt' | 'remindAt' | 'content'>>): Promise<Todo>;
  deleteTodo(userId: string, id: string): Promise<void>;
  /** Open todos whose reminder time has come and that are due for a (re)try (across users). */
  dueReminders(now: Date, limit: number): Promise<Todo[]>;
  /** Records a delivery and the reminded mark in one step; false when this delivery id was recorded before. */
  recordDelivery(userId: string, todoId: string, deliveryId: string, at: Date): Promise<boolean>;
  recordDeliveryFailure(userId: string, todoId: string, error: string, nextAt: Date): Promise<void>;
  /** The deliveries recorded for a todo, oldest first (for `engram migrate`). */
  deliveriesOf(userId: string, todoId: string): Promise<Array<{ id: string; at: Date }>>;
}
