import { css } from '../view/css.ts';

/**
 * The collaboration chunk's styles, over the layer hosts' reset (view/host.ts), in its own open
 * shadow root like the builder's
 * (docs/decisions/0010-builder-ui.md): constructable sheets, since preview pages forbid <style>.
 * Sizes as the editor's own: thread 20.75rem wide, list at most 23.125rem high, mention list
 * 256 × 160 px.
 */
export const COLLAB_CSS = css`
* { font-size: 13px; }
.collab-pin { position: absolute; z-index: 2147483640; width: 32px; height: 32px; border-radius: 16px 16px 16px 0;
  border: 2px solid #fff; background: #6c5ce7; color: #fff; cursor: pointer; display: flex; align-items: center;
  justify-content: center; box-shadow: 0 2px 6px rgba(0,0,0,.3); font-weight: 600; padding: 0; }
.collab-pin--active { background: #4a3aca; outline: 2px solid #b8aef5; }
.collab-pins--paused .collab-pin { display: none; }
.collab-thread { position: fixed; z-index: 2147483641; width: 20.75rem; background: #fff; color: #222;
  border-radius: 8px; box-shadow: 0 8px 24px rgba(0,0,0,.25); display: flex; flex-direction: column; }
.collab-thread__header { display: flex; align-items: center; justify-content: space-between; padding: 10px 12px;
  border-bottom: 1px solid #eee; font-weight: 600; }
.collab-thread__list { max-height: 23.125rem; overflow-y: auto; padding: 0 12px; }
.collab-comment { padding: 8px 0; border-bottom: 1px solid #f2f2f2; }
.collab-comment__head { display: flex; align-items: center; gap: 8px; }
.collab-comment__who { display: flex; flex-direction: column; flex: 1; min-width: 0; }
.collab-comment__time { color: #777; font-size: 11px; }
.collab-comment__message { margin: 6px 0 0; white-space: pre-wrap; word-break: break-word; }
.collab-mention { color: #6c5ce7; font-weight: 600; }
.collab-avatar { width: 28px; height: 28px; border-radius: 14px; background: #e6e1fb; color: #4a3aca;
  display: inline-flex; align-items: center; justify-content: center; font-size: 11px; font-weight: 700; flex: none; }
.collab-skeleton { height: 44px; margin: 8px 0; border-radius: 4px; background: linear-gradient(90deg,#eee,#f7f7f7,#eee); }
.collab-thread__form { padding: 10px 12px; position: relative; }
.collab-textarea { width: 100%; resize: none; border: 1px solid #ccc; border-radius: 4px; padding: 6px 8px; }
.collab-textarea--error { border-color: #d62400; }
.collab-form__meta { display: flex; justify-content: space-between; gap: 8px; margin-top: 4px; font-size: 11px; color: #777; }
.collab-error { color: #d62400; }
.collab-form__buttons, .collab-comment__actions { display: flex; gap: 6px; justify-content: flex-end; margin-top: 8px; }
button.collab-button { border: 1px solid #6c5ce7; background: #fff; color: #6c5ce7; border-radius: 4px; padding: 4px 10px; cursor: pointer; }
button.collab-button--primary { background: #6c5ce7; color: #fff; }
button.collab-button:disabled { opacity: .5; cursor: not-allowed; }
button.collab-link { border: 0; background: none; color: #6c5ce7; cursor: pointer; padding: 0 4px; font-size: 11px; }
.collab-mentions { position: absolute; left: 12px; width: 256px; max-height: 160px; overflow-y: auto; margin: 0; padding: 4px 0;
  list-style: none; background: #fff; border-radius: 4px; box-shadow: 0 4px 12px rgba(0,0,0,.2); z-index: 1; }
.collab-mentions li { padding: 4px 10px; cursor: pointer; display: flex; gap: 6px; align-items: center; }
.collab-mentions li[aria-selected="true"] { background: #f0edfd; }
.collab-thread__footer { padding: 6px 12px; border-top: 1px solid #eee; color: #777; font-size: 11px; }
.collab-comment-icon { position: absolute; z-index: 2147483639; width: 22px; height: 22px; border-radius: 11px; border: 0;
  background: #6c5ce7; color: #fff; cursor: pointer; font-size: 11px; }
`;
