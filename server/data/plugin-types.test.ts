import Fastify from 'fastify';
import t from 'tap';
import { createCatalog } from './catalog.ts';
import { type DataOptions, dataPlugin } from './plugin.ts';

/** The plugin's options are an API: misuse must not compile. `tsc --noEmit` checks this file. */

const app = Fastify();
app.register(dataPlugin, { contentDir: 'content', tokenSecret: 'x'.repeat(32), demoChangeMs: 0 });
app.register(dataPlugin, { catalog: createCatalog([]) });
// @ts-expect-error the demo interval is a number of milliseconds
app.register(dataPlugin, { demoChangeMs: '30s' });
// @ts-expect-error a catalog is a Catalog, not seed data
app.register(dataPlugin, { catalog: [] });
app.register(dataPlugin, { socketLimits: { idleMs: 60_000 }, maxResponseBytes: 512 * 1024 });
// @ts-expect-error the idle timeout is a number of milliseconds
app.register(dataPlugin, { socketLimits: { idleMs: '30s' } });
// @ts-expect-error no such option
app.register(dataPlugin, { graphiql: true });

const elsewhere: DataOptions = { url: 'https://data.example/graphql' };
// @ts-expect-error the content folder is the app's to give (ServerOptions.contentDir), not the data options'
const misplaced: DataOptions = { contentDir: 'content' };

t.pass(`types checked (${Object.keys(elsewhere).length + Object.keys(misplaced).length} option sets)`);
