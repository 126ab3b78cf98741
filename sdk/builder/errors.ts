/**
 * The builder's console messages. None is shown to the user: the editor reports
 * what it could not do. Never reuse a retired code.
 */
export const BUILDER_ERRORS = {
  ADD_INSTANCE_FAILED: 'Visual Builder: Failed to add instance',
  SYNC_FAILED: 'Visual Builder: Failed to sync the field',
  UPDATE_FAILED: 'Visual Builder: Failed to update the field',
  SCHEMA_FAILED: 'Visual Builder: Failed to get the field schema',
  PERMISSIONS_FAILED: 'Visual Builder: Failed to get permissions; every action is allowed',
} as const;
