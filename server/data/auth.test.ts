import { createHmac } from 'node:crypto';
import t from 'tap';
import { bearerToken, createTokens } from './auth.ts';

const SECRET = 'a-secret-of-at-least-thirty-two-chars!!';
const tokens = createTokens(SECRET);

function forge(header: object, payload: object, secret = SECRET): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const body = `${part(header)}.${part(payload)}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

t.test('a signed token names its viewer', async (t) => {
  t.same(tokens.verify(tokens.sign({ sub: 'ann', roles: ['catalog:write'] })), {
    sub: 'ann',
    roles: ['catalog:write'],
  });
  t.same(tokens.verify(tokens.sign({ sub: 'bob', roles: [] })), { sub: 'bob', roles: [] });
});

t.test('forged, tampered, expired and unsigned tokens are refused', async (t) => {
  const good = tokens.sign({ sub: 'ann', roles: [] });
  const [h, p, s] = good.split('.');
  const now = Math.floor(Date.now() / 1000);
  t.equal(tokens.verify(`${h}.${p}.${s?.slice(0, -2)}xx`), null, 'bad signature');
  t.equal(tokens.verify(createTokens(`${SECRET}-other`).sign({ sub: 'ann', roles: [] })), null, 'another secret');
  t.equal(tokens.verify(tokens.sign({ sub: 'ann', roles: [] }, -1000)), null, 'expired');
  t.equal(
    tokens.verify(
      forge({ alg: 'none', typ: 'JWT' }, { sub: 'x', iss: 'vitrine', exp: now + 60 }).replace(/[^.]+$/, ''),
    ),
    null,
    'alg none',
  );
  t.equal(
    tokens.verify(forge({ alg: 'HS256', typ: 'JWT' }, { sub: 'x', iss: 'elsewhere', exp: now + 60 })),
    null,
    'other issuer',
  );
  t.equal(tokens.verify(forge({ alg: 'HS256', typ: 'JWT' }, { sub: 'x', iss: 'vitrine' })), null, 'no expiry');
  t.same(
    tokens.verify(forge({ alg: 'HS256', typ: 'JWT' }, { sub: 'x', iss: 'vitrine', exp: now + 60 })),
    { sub: 'x', roles: [] },
    'the control: a well-formed token passes',
  );
  t.equal(tokens.verify('not a token'), null);
});

t.test('a short secret is refused at startup', async (t) => {
  t.throws(() => createTokens('short'), RangeError);
});

t.test('bearer credentials are read from an Authorization value', async (t) => {
  t.equal(bearerToken(undefined), undefined, 'absent: anonymous');
  t.equal(bearerToken(''), undefined);
  t.equal(bearerToken('Bearer abc.def'), 'abc.def');
  t.equal(bearerToken('bearer   abc'), 'abc', 'scheme is case-insensitive');
  t.equal(bearerToken('Basic dXNlcjpwYXNz'), null, 'another scheme is refused, not ignored');
  t.equal(bearerToken('Bearer'), null);
  t.equal(bearerToken(42), null);
});
