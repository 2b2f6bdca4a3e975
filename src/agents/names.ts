// The tools' names, stable across versions (users' agent configurations name them). A file of its
// own so the editor registers them at activation without loading the tools themselves.
export const TOOL_NAMES = [
  'list_resources',
  'llm_chat',
  'maps_search_places',
  'maps_compute_route',
  'realtime_publish',
  'realtime_recent_messages',
  'run_notebook',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
