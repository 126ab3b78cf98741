/** The workbench's styles, adopted as a constructable stylesheet (the page allows `style-src 'self'` only). */
export const WORKBENCH_CSS = `
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1d2330; background: #eef0f4; }
.wb { display: grid; grid-template-columns: minmax(0, 1fr) 420px; grid-template-rows: auto minmax(0, 1fr) 220px;
  height: 100vh; }
.wb-bar { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 12px; align-items: center; padding: 8px 12px;
  background: #1d2330; color: #fff; }
.wb-bar h1 { font-size: 15px; margin: 0 8px 0 0; }
.wb-bar label { display: flex; gap: 6px; align-items: center; }
.wb-bar select, .wb-bar button { font: inherit; padding: 3px 8px; }
.wb-status { margin-left: auto; font-size: 13px; opacity: 0.9; }
.wb-status[data-kind="error"] { color: #ffb4b4; opacity: 1; }
.wb-frame { border: 0; width: 100%; height: 100%; background: #fff; }
.wb-side { overflow: auto; padding: 12px; background: #fff; border-left: 1px solid #cdd2dc; }
.wb-side fieldset { border: 1px solid #cdd2dc; border-radius: 6px; margin: 0 0 12px; padding: 8px 10px; }
.wb-side legend { font-weight: 600; padding: 0 4px; }
.wb-field { display: block; margin: 0 0 8px; }
.wb-field span { display: block; font-size: 12px; color: #4a5468; word-break: break-all; }
.wb-field input, .wb-field textarea { width: 100%; font: inherit; padding: 4px 6px; border: 1px solid #9aa3b5;
  border-radius: 4px; }
.wb-field input[type="checkbox"] { width: auto; }
.wb-field .wb-lock { display: block; margin: 2px 0 0; color: #4a5468; }
.wb-field input:disabled, .wb-field textarea:disabled { background: #f1f2f5; color: #6b7385; }
.wb-field[data-focused] input, .wb-field[data-focused] textarea { outline: 2px solid #6c5ce7; }
.wb-lock { font-size: 12px; font-weight: normal; margin-left: 8px; }
.wb-log { grid-column: 1 / -1; overflow: auto; background: #111722; color: #d8dee9; font: 12px/1.35 ui-monospace, monospace; }
.wb-log-head { position: sticky; top: 0; display: flex; gap: 12px; align-items: center; padding: 4px 8px;
  background: #273043; }
.wb-log table { border-collapse: collapse; width: 100%; }
.wb-log td { padding: 2px 8px; vertical-align: top; border-bottom: 1px solid #222b3b; white-space: nowrap; }
.wb-log td:last-child { white-space: pre-wrap; word-break: break-all; width: 100%; }
.wb-log tr[data-direction="in"] td:nth-child(2) { color: #8fd18f; }
.wb-log tr[data-direction="out"] td:nth-child(2) { color: #8fbcd1; }
.wb-login { max-width: 420px; margin: 15vh auto; background: #fff; padding: 24px; border-radius: 8px; }
.wb-login input { width: 100%; font: inherit; padding: 6px; margin: 8px 0; }
`;
