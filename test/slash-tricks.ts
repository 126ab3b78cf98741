/**
 * Paths that a careless redirect turns into a protocol-relative `Location` (`//evil.example/`):
 * doubled, escaped and back slashes. The routing door's unit test and the security suite over a
 * real socket both walk them.
 */
export const SLASH_TRICKS = [
  '//evil.example/',
  '///evil.example/',
  '/%2F%2Fevil.example/',
  '/\\evil.example/',
  '/%5Cevil.example/',
  '/de//evil.example/',
] as const;
