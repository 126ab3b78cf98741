/**
 * The layer's own error catalogue, apart from the messaging codes of
 * transport/errors.ts. Texts are the spec's, word for word where it gives one. Every entry is a
 * caller mistake (configuration, API use) or a page problem, never a bug of ours; bugs surface as
 * ordinary exceptions. Never reuse a retired code.
 */
export const LAYER_ERRORS = {
  INVALID_MODE: "Live Preview SDK: The mode must be either 'builder' or 'preview'",
  ENVIRONMENT_REQUIRED: 'Live preview SDK: environment is required',
  API_KEY_REQUIRED: 'Live preview SDK: api key is required',
  INVALID_KEY: 'Invalid key',
  INVALID_EDITOR_ORIGIN: 'Live preview SDK: editorOrigins must be origins such as https://app.contentstack.com',
  EDIT_BUTTON_ENABLE_REQUIRED: 'enable key is required inside editButton object',
  EDIT_LINK_API_KEY:
    'To use edit tags, you must provide the stack API key. Specify the API key while initializing the Live Preview SDK.',
  EDIT_LINK_ENVIRONMENT:
    'To use edit tags, you must provide the preview environment. Specify the preview environment while initializing the Live Preview SDK.',
  NO_SUBSCRIBER_ID: 'No subscriber found with the given id.',
  NO_SUBSCRIBER_CALLBACK: 'No subscriber found with the given callback.',
  LINK_DECORATION_FAILED: 'Error while adding live preview to URL',
  /** The site could not fetch or apply the page with the editor's latest content. */
  PAGE_REFRESH_FAILED: 'Could not update the preview with the latest content',
  ALREADY_INITIALIZED:
    'You have already initialized the Live Preview SDK. So, any subsequent initialization returns the existing SDK instance.',
  NO_WINDOW: 'The SDK is not initialized in the browser.',
} as const;

export type LayerErrorCode = keyof typeof LAYER_ERRORS;

export class LayerError extends Error {
  override readonly name = 'LayerError';
  readonly code: LayerErrorCode;
  /** What the error is about, appended to the text (the config path of INVALID_KEY, as 3.2.5 does). */
  readonly subject: string | undefined;
  constructor(code: LayerErrorCode, subject?: string) {
    super(subject === undefined ? LAYER_ERRORS[code] : `${LAYER_ERRORS[code]}: ${subject}`);
    this.code = code;
    this.subject = subject;
  }
}
