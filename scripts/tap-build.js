// `npm install` rebuilds tap's test class for the plugins .taprc names (decision 0194), so the
// typecheck and the first test run see the same plugins. A production install (`--omit=dev`) has
// no tap, and has nothing to rebuild.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (existsSync('node_modules/tap/package.json')) {
  const { status } = spawnSync('tap', ['build'], { stdio: 'inherit' });
  process.exit(status ?? 1);
}
