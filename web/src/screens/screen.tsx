import type { Route } from '../lib/route';
import { MemoriesScreen } from './memories-screen';
import { MemoryScreen } from './memory-screen';
import { SessionScreen } from './session-screen';
import { TodosScreen } from './todos-screen';
import { EpisodesScreen } from './episodes-screen';
import { ProfileScreen } from './profile-screen';
import { LearningsScreen } from './learnings-screen';
import { SettingsScreen } from './settings-screen';
import { DataScreen } from './data-screen';
import { MirrorScreen } from './mirror-screen';
import { PlaygroundScreen } from './playground-screen';
import { OperatorScreen } from './operator-screen';

/** Picks the screen for the current hash route; `admin`: whether the key may read /metrics (undefined until known). */
export function Screen({ route, admin }: { route: Route; admin: boolean | undefined }) {
  switch (route.screen) {
    case 'memory': return route.arg ? <MemoryScreen id={route.arg} /> : <MemoriesScreen />;
    case 'session': return route.arg ? <SessionScreen id={route.arg} /> : <MemoriesScreen />;
    case 'todos': return <TodosScreen />;
    case 'episodes': return <EpisodesScreen />;
    case 'profile': return <ProfileScreen />;
    case 'learnings': return <LearningsScreen />;
    case 'settings': return <SettingsScreen />;
    case 'data': return <DataScreen />;
    case 'mirror': return <MirrorScreen />;
    case 'playground': return <PlaygroundScreen />;
    case 'operator': return <OperatorScreen admin={admin} />;
    default: return <MemoriesScreen />;
  }
}
