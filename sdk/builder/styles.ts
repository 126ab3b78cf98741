import { css } from '../view/css.ts';

/**
 * The builder's styles, over the layer hosts' reset (view/host.ts). Everything lives in an open
 * shadow root (docs/decisions/0010-builder-ui.md). The few rules that must
 * style site elements (draft and variant outlines) go to the document with the
 * `visual-builder__` prefix, which the site never uses.
 */
export const SHADOW_CSS = css`
.visual-builder__hover-outline { position: fixed; pointer-events: none; z-index: 2147483646;
  outline: 2px dashed #6c5ce7; transition: all .05s; }
.visual-builder__hover-outline--disabled { outline-color: #909090; }
.visual-builder__cursor { position: fixed; pointer-events: none; z-index: 2147483647; display: none;
  transform: translate(12px, 14px); }
.visual-builder__cursor.visible { display: block; }
.visual-builder__cursor-icon { display: inline-flex; align-items: center; gap: 4px; padding: 2px 6px; border-radius: 4px;
  background: #6c5ce7; color: #fff; font-size: 11px; line-height: 16px; white-space: nowrap; }
.visual-builder__cursor-disabled .visual-builder__cursor-icon { background: #909090; }
.visual-builder__overlay__wrapper { display: none; }
.visual-builder__overlay__wrapper.visible { display: block; }
.visual-builder__overlay { position: fixed; background: rgba(0,0,0,.3); z-index: 99999; }
.visual-builder__overlay--outline { position: fixed; pointer-events: none; z-index: 99999; outline: 4px solid #715cdd; }
.visual-builder__overlay--outline.disabled { outline-color: #909090; }
.visual-builder__focused-toolbar { position: fixed; top: 0; left: 0; z-index: 100000; display: flex; gap: 4px;
  align-items: stretch; font-size: 12px; }
.visual-builder__focused-toolbar[hidden] { display: none; }
.tb-group { display: flex; background: #fff; border-radius: 4px; box-shadow: 0 2px 8px rgba(0,0,0,.2); overflow: visible; }
.tb-label { display: flex; align-items: center; gap: 4px; max-width: 320px; padding: 4px 8px; border: 0; border-radius: 4px;
  background: #6c5ce7; color: #fff; font-size: 12px; cursor: pointer; white-space: nowrap; }
.tb-label.disabled { background: #909090; }
.tb-parents { position: absolute; top: 100%; left: 0; margin-top: 4px; background: #fff; border-radius: 4px;
  box-shadow: 0 2px 8px rgba(0,0,0,.2); min-width: 140px; }
.tb-parents button { display: block; width: 100%; text-align: left; }
.tb-label-wrap { position: relative; display: flex; flex-direction: column; align-items: flex-start; }
.visual-builder__hover-toolbar { position: fixed; top: 0; left: 0; z-index: 100000; display: flex; flex-direction: column;
  align-items: flex-start; pointer-events: none; font-size: 12px; }
.tb-ct { font-weight: 600; }
.tb-path { overflow: hidden; text-overflow: ellipsis; }
.tb-ref { display: flex; align-items: center; gap: 4px; margin-top: 2px; padding: 2px 6px; border-radius: 4px;
  background: #fff; color: #222; box-shadow: 0 2px 8px rgba(0,0,0,.2); white-space: nowrap; }
.tb-apps { border-left: 1px solid #ddd; }
.tb-more { position: relative; }
.tb-app-icon { display: inline-block; width: 16px; height: 16px; line-height: 16px; font-weight: 600; }
.tb-app-list { position: absolute; top: 100%; right: 0; margin-top: 4px; padding: 6px; background: #fff;
  border-radius: 4px; box-shadow: 0 2px 8px rgba(0,0,0,.2); min-width: 230px; }
.tb-app-search { width: 100%; box-sizing: border-box; padding: 4px 6px; border: 1px solid #767676; border-radius: 4px;
  font-size: 12px; }
button.tb-app-item { display: flex; align-items: center; gap: 6px; width: 100%; padding: 6px; border: 0;
  background: #fff; color: #222; text-align: left; cursor: pointer; font-size: 12px; }
button.tb-app-item:hover { background: #f0edff; }
.tb-no-apps { margin: 6px; color: #475161; }
button.tb-button { min-width: 28px; height: 28px; padding: 0 6px; border: 0; background: #fff; color: #222;
  font-size: 13px; cursor: pointer; position: relative; }
button.tb-button:hover:not(:disabled) { background: #f0edff; }
button.tb-button:disabled { color: #bbb; cursor: not-allowed; }
.tb-reason { align-self: center; max-width: 260px; padding: 4px 8px; background: #fff7e6; color: #7a4b00;
  border-radius: 4px; box-shadow: 0 2px 8px rgba(0,0,0,.2); }
button.tb-request { align-self: center; padding: 4px 8px; border: 0; background: #fff7e6; color: #7a4b00;
  text-decoration: underline; cursor: pointer; border-radius: 4px; }
.tb-error { display: inline-flex; align-items: center; padding: 0 8px; background: #d62400; color: #fff;
  border-radius: 4px; font-weight: 600; position: relative; }
.visual-builder__tooltip { position: fixed; top: 0; left: 0; z-index: 2147483647; max-width: 240px; padding: 4px 8px;
  border-radius: 4px; background: #222; color: #fff; font-size: 11px; white-space: pre-line; pointer-events: none; }
.visual-builder__icon { flex: none; }
.visual-builder__add-button { position: fixed; top: 0; left: 0; z-index: 2147483646; height: 32px; min-width: 32px;
  max-width: 180px; padding: 0 8px; border: 1px solid #6c5ce7; border-radius: 16px; background: #fff; color: #6c5ce7;
  font-size: 12px; cursor: pointer; display: inline-flex; align-items: center; gap: 4px; overflow: visible; }
.visual-builder__add-button-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 140px; }
.visual-builder__add-button:disabled { border-color: #bbb; color: #bbb; cursor: not-allowed; }
.visual-builder__add-button.loading { opacity: .6; cursor: progress; }
.visual-builder__variant-revert { position: relative; }
.tb-menu { position: absolute; top: 100%; right: 0; margin-top: 4px; background: #fff; border-radius: 4px;
  box-shadow: 0 2px 8px rgba(0,0,0,.2); min-width: 220px; }
.tb-menu button { display: block; width: 100%; text-align: left; }
`;

/** Outlines the editor asks for on site elements (draft and variant fields). */
export const PAGE_CSS = css`
.visual-builder__draft-field { outline: 2px dashed #eb5646 !important; outline-offset: -2px; }
.visual-builder__variant-field--outline { outline: 2px solid #bd59fa !important; outline-offset: -2px; }
[contenteditable][data-cslp-field-type] { outline: none; cursor: text; }
.visual-builder__pseudo-editable-source { visibility: hidden !important; }
.visual-builder__pseudo-editable-element { position: fixed !important; z-index: 99999; margin: 0 !important;
  box-sizing: border-box; white-space: pre-wrap; overflow: visible; text-overflow: clip; }
.visual-builder__empty-block { all: initial; display: flex; flex-direction: column; align-items: center; gap: 8px;
  padding: 24px; border: 1px dashed #6c5ce7; border-radius: 4px; font: 14px system-ui, sans-serif; color: #475161; }
.visual-builder__empty-block-add-button { all: initial; padding: 6px 12px; border-radius: 4px; background: #6c5ce7;
  color: #fff; font: 13px system-ui, sans-serif; cursor: pointer; }
`;
