import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { until } from '../until.ts';
import { missing } from './parts.ts';

/**
 * No Docker engine runs where the tests run, so this reproduces the Dockerfile's runtime stage
 * outside Docker: the same COPY lines into an empty folder, the same production install, the same
 * ENV and CMD. A file the server reads at run time but the image does not copy fails here.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const UK = 'www.halden.co.uk';
const PRODUCT = '/cs/kitchen/aquasense-60-dishwasher-4711';
const run = promisify(execFile);
/** The image's `node` user. */
const IMAGE_UID = 1000;
const DRAIN_MS = 2_000;
const DRAFT_API_TOKEN = 'docker-test-draft-token-0123456789';

/** A private mount namespace and a user switch: what running as root here can do. */
function canIsolate(): boolean {
  const probe = spawnSync('unshare', ['-m', 'sh', '-c', 'mount --make-rprivate / && command -v setpriv'], {
    stdio: 'ignore',
  });
  return probe.status === 0;
}

interface Copy {
  from: string | undefined;
  sources: string[];
  dest: string;
}

interface Stage {
  name: string | undefined;
  /** The base image of `FROM`. */
  image: string;
  workdir: string;
  env: Record<string, string>;
  copies: Copy[];
  runs: string[];
  cmd: string[] | undefined;
  healthcheck: string[] | undefined;
  user: string | undefined;
  expose: string[];
}

/** Instructions with continuations joined and comment lines dropped, as Docker reads them. */
function instructions(text: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && pending === '')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    if (pending + line !== '') out.push(pending + line);
    pending = '';
  }
  if (pending) out.push(pending.trim());
  return out;
}

function execForm(value: string, what: string): string[] {
  const parsed: unknown = JSON.parse(value);
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string')) {
    throw new Error(`${what} is not an exec-form array of strings: ${value}`);
  }
  return parsed;
}

function parseStages(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const line of instructions(text)) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = line.slice(keyword.length).trim();
    const op = keyword.toUpperCase();
    if (op === 'FROM') {
      const name = /\sAS\s+(\S+)$/i.exec(args)?.[1];
      stages.push({
        name,
        image: args.split(/\s+/)[0] ?? '',
        workdir: '/',
        env: {},
        copies: [],
        runs: [],
        cmd: undefined,
        healthcheck: undefined,
        user: undefined,
        expose: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) continue; // ARG or syntax lines before the first FROM
    if (op === 'WORKDIR') stage.workdir = posix.resolve(stage.workdir, args);
    else if (op === 'RUN') stage.runs.push(args);
    else if (op === 'USER') stage.user = args;
    else if (op === 'EXPOSE') stage.expose.push(...rest);
    else if (op === 'CMD') stage.cmd = execForm(args, 'CMD');
    else if (op === 'HEALTHCHECK') {
      const cmd = /\bCMD\s+(\[.*\])$/.exec(args)?.[1];
      if (cmd) stage.healthcheck = execForm(cmd, 'HEALTHCHECK CMD');
    } else if (op === 'ENV') {
      const pairs = [...args.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S*)/g)];
      if (pairs.length > 0) {
        for (const [, key = '', value = ''] of pairs)
          stage.env[key] = value.startsWith('"') ? JSON.parse(value) : value;
      } else {
        const [key = '', ...value] = rest; // legacy `ENV KEY value`
        stage.env[key] = value.join(' ');
      }
    } else if (op === 'COPY') {
      const flags = rest.filter((part) => part.startsWith('--'));
      const paths = rest.filter((part) => !part.startsWith('--'));
      const from = flags.find((flag) => flag.startsWith('--from='))?.slice('--from='.length);
      const dest = paths.pop();
      if (!dest || paths.length === 0) throw new Error(`Cannot read COPY line: ${line}`);
      stage.copies.push({ from, sources: paths, dest });
    }
  }
  return stages;
}

/** True when .dockerignore keeps `path` (relative to the build context) out of the context. */
function ignoredByDockerignore(path: string, patterns: string[]): boolean {
  let ignored = false;
  for (const pattern of patterns) {
    const negate = pattern.startsWith('!');
    const glob = posix.normalize((negate ? pattern.slice(1) : pattern).replace(/^\/+/, ''));
    const regex = new RegExp(
      `^${glob
        .split('')
        .map((c) => (c === '*' ? '[^/]*' : c === '?' ? '[^/]' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
        .join('')}(/.*)?$`,
    );
    if (regex.test(path)) ignored = !negate;
  }
  return ignored;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http rather than fetch: fetch may not set a Host header of our choosing. */
function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  { method = 'GET', body }: { method?: string; body?: string } = {},
): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', fail);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on('error', fail);
    req.end(body);
  });
}

function exited(child: ChildProcess, ms: number): Promise<{ code: number | null; signal: string | null } | 'timeout'> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((done) => {
    const timer = setTimeout(() => done('timeout'), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal });
    });
  });
}

/** The environment of a container: the image's ENV on top of little more than PATH and HOME. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

/** npm's environment without what tap or an outer `npm run` injects (loaders, npm_config_*). */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => key !== 'NODE_OPTIONS' && !/^(npm_|TAP)/i.test(key)),
  );
}

// .taprc gives each file 120 s; a cold npm cache or a first build can need more. Tells the runner too.
t.setTimeout(330_000);

const npmAvailable = !spawnSync('npm', ['--version'], { stdio: 'ignore' }).error;

t.test(
  'the Dockerfile runtime stage serves the storefront',
  { timeout: 300_000, skip: npmAvailable ? false : 'npm is not available' },
  async (t) => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    const stages = parseStages(dockerfile);
    const build = stages.find((stage) => stage.name === 'build');
    const runtime = stages.at(-1);
    if (!build || !runtime || build === runtime) throw new Error('expected a `build` stage and a later runtime stage');

    // The shape the image must have: Node.js 24 LTS in both stages, production settings, non-root.
    for (const stage of stages) t.match(stage.image, /^node:24-/, `stage ${stage.name ?? '?'} is built on Node.js 24`);
    t.equal(runtime.env.NODE_ENV, 'production', 'runtime NODE_ENV');
    t.equal(runtime.env.HOST, '0.0.0.0', 'runtime HOST');
    t.equal(runtime.env.PORT, '3000', 'runtime PORT');
    t.equal(runtime.user, 'node', 'runs as the non-root node user');
    t.ok(runtime.expose.includes('3000'), 'EXPOSE 3000');
    t.ok(runtime.expose.includes('9464'), 'EXPOSE 9464 (metrics)');
    t.ok(
      runtime.runs.some((cmd) => /\bnpm ci\b.*--omit=dev/.test(cmd)),
      'production dependencies only',
    );
    t.ok(runtime.cmd, 'CMD is in exec form');
    t.ok(runtime.healthcheck, 'HEALTHCHECK CMD is in exec form');
    const cmd = runtime.cmd ?? [];
    const healthcheck = runtime.healthcheck ?? [];
    t.equal(healthcheck[0], 'node', 'the health check uses node (no curl in slim images)');
    t.match(healthcheck.join(' '), /127\.0\.0\.1.*\/healthcheck/, 'the health check asks /healthcheck');

    // Every COPY source exists in the build context (or, from the build stage, in the build output).
    const copies = runtime.copies.map(({ from, sources, dest }) => {
      if (from !== undefined && from !== 'build') throw new Error(`COPY --from=${from} is not reproduced`);
      const relativeSources = sources.map((src) =>
        from === 'build' ? posix.relative(build.workdir, posix.resolve(build.workdir, src)) : posix.normalize(src),
      );
      for (const src of relativeSources) {
        t.notOk(src.startsWith('..'), `${src} lies inside the build context`);
        const producedByBuild = from === 'build' && /^dist(\/|$)/.test(src);
        if (!producedByBuild) t.notOk(ignoredByDockerignore(src, dockerignore), `${src} is not in .dockerignore`);
      }
      return {
        from,
        sources: relativeSources,
        dest: posix.resolve(runtime.workdir, dest),
        destIsDir: dest.endsWith('/'),
      };
    });

    // A build like the build stage's, when there is none or it is older than the sources; the
    // suites after this one reuse it.
    await run(process.execPath, ['scripts/build-if-stale.js'], {
      cwd: ROOT,
      timeout: 240_000,
      maxBuffer: 64 * 1024 * 1024,
      env: npmEnv(),
    });

    const dir = await mkdtemp(join(tmpdir(), 'vitrine-docker-'));
    let child: ChildProcess | undefined;
    t.teardown(async () => {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited(child, 5_000);
      }
      await rm(dir, { recursive: true, force: true });
    });

    // The image's filesystem: the runtime WORKDIR becomes `dir`.
    const inImage = (path: string) => join(dir, posix.relative(runtime.workdir, path));
    for (const copy of copies) {
      for (const src of copy.sources) {
        const from = join(ROOT, src);
        const multiple = copy.sources.length > 1 || copy.destIsDir;
        const to =
          multiple && !statSync(from).isDirectory()
            ? join(inImage(copy.dest), posix.basename(src))
            : inImage(copy.dest);
        await mkdir(dirname(to), { recursive: true });
        await cp(from, to, { recursive: true });
      }
    }
    t.ok(existsSync(join(dir, 'package-lock.json')), 'package-lock.json is copied before npm ci');

    // The runtime stage's install. When `npm ci` refuses (a lock file out of sync with package.json
    // fails `docker build` just the same), that is one failure, and `npm install` with the same lock
    // stands in so the server can still be checked.
    const started = Date.now();
    // The image's own `npm ci` flags (production only), from npm's cache
    // only: no test fetches from the network (the development install filled the cache).
    const ciLine = runtime.runs.find((line) => /\bnpm ci\b/.test(line)) ?? '';
    const imageFlags = (/\bnpm ci\b([^&;]*)/.exec(ciLine)?.[1] ?? '').split(/\s+/).filter((f) => f.startsWith('--'));
    const flags = [...imageFlags, '--offline'];
    const install = { cwd: dir, timeout: 240_000, maxBuffer: 64 * 1024 * 1024, env: npmEnv() };
    const ci = await run('npm', ['ci', ...flags], install).then(
      () => undefined,
      (error: { stderr?: string; message: string }) => error,
    );
    const npmError = (ci?.stderr ?? ci?.message ?? '')
      .split('\n')
      .filter((line) => /npm error (?!$)/.test(line) && !/Usage|Options|--|aliases|Run "npm help/.test(line))
      .slice(0, 12)
      .join('\n');
    if (/ENOTCACHED/.test(npmError)) {
      missing(t, "npm's cache lacks a production dependency: run `npm ci` once with the network");
      return;
    }
    t.notOk(ci, 'npm ci --omit=dev succeeds with package.json and package-lock.json as copied', { npmError });
    if (ci) await run('npm', ['install', '--no-save', ...flags], install);
    // The line's own clean-up after the install (the optional Node binary), as the image runs it.
    const removal = /&&\s*(rm -rf [^&;]+)/.exec(ciLine)?.[1];
    if (removal) await run('sh', ['-c', removal], { cwd: dir });
    t.comment(`production install: ${Date.now() - started} ms`);
    t.notOk(existsSync(join(dir, 'node_modules', 'vite')), 'dev dependencies are not installed');
    // The base image brings Node 24; the registry's Node binary (an optional dependency for
    // development machines) would add ~120 MB.
    t.notOk(existsSync(join(dir, 'node_modules', '.bin', 'node')), 'no Node binary in node_modules');

    // The container as an operator runs it: `docker run --read-only -v content:/app/content`, as the
    // image's non-root user. As root here: a private mount namespace where `/` is remounted read-only
    // (the image copy under /tmp with it) and only the content volume stays writable, then uid 1000
    // (the image's `node`). Otherwise the copy is made unwritable and run as the current user.
    const port = await freePort();
    const metricsPort = await freePort();
    const env: Record<string, string> = {
      ...runtime.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      DRAFT_API_TOKEN,
    };
    const volume = await mkdtemp(join(tmpdir(), 'vitrine-volume-'));
    t.teardown(() => rm(volume, { recursive: true, force: true }));
    await cp(join(dir, 'content'), volume, { recursive: true });
    const root = process.getuid?.() === 0;
    const isolated = root && canIsolate();
    const [command = 'node', ...args] = cmd;
    const node = command === 'node' ? process.execPath : command;
    if (root) await run('chown', ['-R', `${IMAGE_UID}:${IMAGE_UID}`, volume]);
    if (isolated) {
      await run('chmod', ['755', dir]);
    } else {
      // No mount namespace: the app folder loses its write bits and content is read from the volume.
      env.CONTENT_DIR = volume;
      await run('chmod', ['-R', 'a=rX', dir]);
      t.teardown(() => run('chmod', ['-R', 'u+w', dir]));
    }
    // As root, the image's user; a user switch is what makes an unwritable folder unwritable.
    const asImageUser = root ? `setpriv --reuid=${IMAGE_UID} --regid=${IMAGE_UID} --clear-groups -- ` : '';
    // NODE_OPTIONS goes: tap adds its process tracking there, which writes under .tap/ (not in the
    // image). Exit 97 when the app folder could be written: then the test would prove nothing.
    const launcher = [
      'unset NODE_OPTIONS',
      ...(isolated
        ? ['mount --make-rprivate / && mount --bind "$VOLUME" "$APP/content" && mount -o remount,bind,ro / || exit 96']
        : []),
      `${asImageUser}touch "$APP/probe" 2>/dev/null && exit 97`,
      `exec ${asImageUser}"$@"`,
    ].join('\n');
    t.comment(
      isolated
        ? `read-only root: mount namespace, uid ${IMAGE_UID}`
        : `read-only root: unwritable copy, ${root ? `uid ${IMAGE_UID}` : 'current user'}`,
    );
    let output = '';
    child = spawn(
      isolated ? 'unshare' : 'sh',
      [...(isolated ? ['-m', 'sh'] : []), '-c', launcher, 'sh', node, ...args],
      {
        cwd: dir,
        env: { ...cleanEnv(env), APP: dir, VOLUME: volume },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const tail = () => output.split('\n').slice(-30).join('\n');

    // Ready within 30 s.
    let health: Reply | undefined;
    await until(
      async () => {
        health = await get(port, '/healthcheck').catch(() => undefined);
        return health?.status === 200 || child.exitCode !== null;
      },
      { what: 'GET /healthcheck', timeout: 30_000, every: 250 },
    ).catch(() => {});
    t.equal(health?.status, 200, 'GET /healthcheck answers 200 within 30 s', {
      output: tail(),
      exit: child.exitCode, // 96: no read-only mount, 97: the app folder was writable
    });
    if (health?.status !== 200) return;
    t.same(JSON.parse(health.body), { status: 'ok' }, '/healthcheck body');

    // The image's own health check, run against this server.
    const [checkCommand = 'node', ...checkArgs] = healthcheck;
    const check = spawnSync(checkCommand === 'node' ? process.execPath : checkCommand, checkArgs, {
      cwd: dir,
      env: cleanEnv(env),
      timeout: 10_000,
    });
    t.equal(check.status, 0, 'the HEALTHCHECK command succeeds', { stderr: check.stderr?.toString() });

    const home = await get(port, '/', { host: UK });
    t.equal(home.status, 200, `GET / (${UK})`, { output: tail() });
    t.match(home.headers['content-type'], /^text\/html/, 'home is HTML');
    t.ok(home.body.includes('<html lang="en-GB"'), 'home is the en-GB storefront');
    t.ok(home.body.includes('Skip to main content'), 'messages come from locales/en-GB.json');

    const product = await get(port, PRODUCT, { host: UK });
    t.equal(product.status, 200, `GET ${PRODUCT} (${UK})`, { output: tail() });
    t.ok(product.body.includes('<html lang="en-GB"'), 'product page is en-GB');

    const stylesheet =
      /href="(\/assets\/[^"]+\.css)"/.exec(product.body)?.[1] ?? /href="(\/assets\/[^"]+\.css)"/.exec(home.body)?.[1];
    t.ok(stylesheet, 'the page links a built stylesheet');
    if (stylesheet) {
      const asset = await get(port, stylesheet, { host: UK });
      t.equal(asset.status, 200, `GET ${stylesheet}`);
      t.match(asset.headers['content-type'], /^text\/css/, 'stylesheet content type');
    }

    const script = /src="(\/assets\/[^"]+\.js)"/.exec(home.body)?.[1];
    t.ok(script, 'the page loads a built script');
    if (script) {
      const compressed = await get(port, script, { host: UK, 'accept-encoding': 'br' });
      t.equal(compressed.status, 200, `GET ${script}`);
      t.equal(compressed.headers['content-encoding'], 'br', 'the brotli twin from the build is served');
    }

    // Demo images: every one the page uses that exists in public/ is served. (Ones the content
    // names but public/ lacks are a content matter, not the image's: listed, not failed.)
    const images = [...new Set([...home.body.matchAll(/"(\/images\/[\w.-]+)"/g)].map((match) => match[1] ?? ''))];
    const present = images.filter((url) => existsSync(join(ROOT, 'public', url)));
    const absent = images.filter((url) => !present.includes(url));
    if (absent.length > 0) t.comment(`images the page names but public/ lacks: ${absent.join(', ')}`);
    t.ok(present.length > 0, 'the page uses at least one image from public/');
    for (const url of present) {
      const image = await get(port, url, { host: UK });
      t.equal(image.status, 200, `GET ${url}`);
    }

    // Drafts are written to the content volume, the one writable place.
    const draft = await get(
      port,
      `/cs/api/contentstack/_drafts/docker-hash-01/en-GB/page_template/dishwasher`,
      {
        host: UK,
        authorization: `Bearer ${DRAFT_API_TOKEN}`,
        'content-type': 'application/json',
      },
      { method: 'PUT', body: readFileSync(join(volume, 'en-GB/page_template/dishwasher.json'), 'utf8') },
    );
    t.ok(draft.status >= 200 && draft.status < 300, `a draft is saved (${draft.status})`, {
      body: draft.body,
      output: tail(),
    });
    t.ok(existsSync(join(volume, '_drafts/docker-hash-01/en-GB/page_template/dishwasher.json')), 'on the volume');

    // Metrics on their own port, from Node.js 24.
    const scraped = await get(metricsPort, '/metrics');
    t.equal(scraped.status, 200, 'GET /metrics on METRICS_PORT');
    const version = /^nodejs_version_info\{[^}]*major="(\d+)"/m.exec(scraped.body)?.[1];
    t.ok(Number(version) >= 24, `the image's server runs on Node.js 24 (major ${version})`);
    t.match(scraped.body, /^vitrine_http_requests_total\{kind="page",status_class="2xx"\} \d+/m, 'pages counted');
    t.equal((await get(port, '/metrics', { host: UK })).status, 404, 'no /metrics on the public port');
    t.equal((await get(port, '/readyz')).status, 200, '/readyz: ready');

    // SIGTERM (what `docker stop` sends): /readyz turns 503 at once while pages are still served for
    // the drain time, then the process exits 0 within the grace period.
    const stopping = Date.now();
    child.kill('SIGTERM');
    let readyz: Reply | undefined;
    await until(
      async () => {
        readyz = await get(port, '/readyz').catch(() => undefined);
        return readyz?.status === 503;
      },
      { what: '/readyz draining', timeout: DRAIN_MS, every: 50 },
    ).catch(() => {});
    t.equal(readyz?.status, 503, '/readyz answers 503 while draining', { output: tail() });
    t.match(readyz?.body ?? '', /"draining"/, 'and says why');
    const during = await get(port, PRODUCT, { host: UK }).catch((error: Error) => ({ status: 0, body: error.message }));
    t.equal(during.status, 200, 'a request during the drain is still served');
    t.ok(Date.now() - stopping < DRAIN_MS, 'all of that before the server closed');
    const result = await exited(child, 15_000);
    t.same(result, { code: 0, signal: null }, 'SIGTERM exits with code 0 within 15 s', { output: tail() });
    t.comment(`shutdown: ${Date.now() - stopping} ms (drain ${DRAIN_MS} ms)`);
  },
);
