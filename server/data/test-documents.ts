/** Hostile GraphQL documents the data-layer tests throw at the limits. */

/** Fragments F0…F{n-1}, each spreading the next twice, the last spreading one that does not exist. */
export function fragmentChain(levels: number): string {
  const fragments = Array.from({ length: levels }, (_, i) =>
    i + 1 < levels
      ? `fragment F${i} on Product { ...F${i + 1} ...F${i + 1} }`
      : `fragment F${i} on Product { ...Unknown }`,
  );
  return `{ product(id:"1",locale:"x") { ...F0 } } ${fragments.join(' ')}`;
}
