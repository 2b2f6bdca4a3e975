// The playground's built-in tools by name, apart from the message schemas so the webview can list
// them without bundling zod.
export const BUILTIN_TOOL_NAMES = ['search_places', 'place_details', 'compute_route', 'validate_address', 'publish_to_channel', 'list_channels'] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];
