/**
 * Pure helpers of the collaboration chunk: comment validation, cleaning, mention
 * placeholders, names, initials, times and XPaths, with the texts and limits the editor uses.
 */

export const MAX_LENGTH = 500;
export const MAX_MENTIONS = 20;
export const PAGE_SIZE = 10;
export const LENGTH_ERROR = `Limit exceeded. You can have a maximum length of ${MAX_LENGTH} characters.`;
export const MENTION_ERROR = `Limit exceeded. You can tag a maximum of ${MAX_MENTIONS} users.`;

export interface User {
  /** The spec keys users by `id`, the editor's wire messages by `uid`: both arrive as `uid`. */
  uid: string;
  email: string;
  firstName?: string;
  lastName?: string;
  display?: string;
}

/** A user of the editor's list, or null when it has neither an id nor an email to show. */
export function toUser(value: unknown): User | null {
  if (typeof value !== 'object' || value === null) return null;
  const { uid, id, email, firstName, lastName, display } = value as Record<string, unknown>;
  const key = typeof uid === 'string' ? uid : typeof id === 'string' ? id : undefined;
  if (key === undefined || typeof email !== 'string') return null;
  return {
    uid: key,
    email,
    ...(typeof firstName === 'string' ? { firstName } : {}),
    ...(typeof lastName === 'string' ? { lastName } : {}),
    ...(typeof display === 'string' ? { display } : {}),
  };
}

export interface Mention {
  uid: string;
  display: string;
}

/** 'first last', else first or last, else the email. */
export function displayName(user: User): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return user.display || name || user.email;
}

/** Names longer than 20 characters: the first 18 plus an ellipsis, so the mention list keeps its width. */
export function truncateName(name: string): string {
  return name.length > 20 ? `${name.slice(0, 18)}…` : name;
}

/** First letters of the first and last word, or the first 2 characters of a single word. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1] ?? '') : '';
  return (last ? `${first[0] ?? ''}${last[0] ?? ''}` : first.slice(0, 2)).toUpperCase();
}

export function headerText(count: number): string {
  return count === 0 ? 'Add New Comment' : count === 1 ? '1 Comment' : `${count} Comments`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** 'MMM DD, YYYY, hh:mm A' in local time, whatever the browser's language, as the editor shows it. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const hours = date.getHours();
  const day = `${MONTHS[date.getMonth()]} ${two(date.getDate())}, ${date.getFullYear()}`;
  return `${day}, ${two(hours % 12 || 12)}:${two(date.getMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** A pin's `relative` attribute: the point as fractions of its element. */
export function relativeText(position: { x: number; y: number }): string {
  return `x: ${position.x}, y: ${position.y}`;
}

/** The point of a `relative` attribute, or null when it is not of the form 'x: n, y: n'. */
export function parseRelative(text: string | null): { x: number; y: number } | null {
  const match = /^x: (\d+(?:\.\d+)?(?:e-?\d+)?), y: (\d+(?:\.\d+)?(?:e-?\d+)?)$/.exec(text ?? '');
  return match ? { x: Number(match[1]), y: Number(match[2]) } : null;
}

/** The mentions still present in the text, unique by user. */
export function mentionsIn(text: string, mentions: Mention[]): Mention[] {
  const seen = new Set<string>();
  return mentions.filter((m) => {
    if (seen.has(m.uid) || !text.includes(`@${m.display}`)) return false;
    seen.add(m.uid);
    return true;
  });
}

/** The validation error for the textarea, or ''. */
export function validate(text: string, mentions: Mention[]): string {
  if (text.length > MAX_LENGTH) return LENGTH_ERROR;
  if (mentionsIn(text, mentions).length > MAX_MENTIONS) return MENTION_ERROR;
  return '';
}

/** HTML stripped as plain text (a parser never runs scripts), whitespace collapsed. */
export function cleanText(text: string, parser: DOMParser): string {
  const plain = parser.parseFromString(text, 'text/html').body.textContent ?? '';
  return plain.replace(/\s+/g, ' ').trim();
}

/** Stored form: every `@Name` of a picked user becomes `{{uid}}` (longest names first). */
export function toStored(text: string, mentions: Mention[], parser: DOMParser): { message: string; toUsers: string[] } {
  const used = mentionsIn(text, mentions).sort((a, b) => b.display.length - a.display.length);
  let message = cleanText(text, parser);
  for (const m of used) message = message.split(`@${m.display}`).join(`{{${m.uid}}}`);
  return { message, toUsers: used.map((m) => m.uid) };
}

/** Shown form: `{{uid}}` back to `@Name` (unknown ids stay as they are). */
export function fromStored(message: string, users: Map<string, User>): { text: string; mentions: Mention[] } {
  const mentions: Mention[] = [];
  const text = message.replace(/\{\{([^{}]+)\}\}/g, (whole, uid: string) => {
    const user = users.get(uid);
    if (!user) return whole;
    const display = displayName(user);
    mentions.push({ uid, display });
    return `@${display}`;
  });
  return { text, mentions };
}

/** Users whose display name contains the query, case-insensitively. */
export function filterUsers(users: User[], query: string): User[] {
  const q = query.toLowerCase();
  return users.filter((u) => displayName(u).toLowerCase().includes(q));
}

/** The @-query right before the caret: an @ with no space after it. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!match) return null;
  const query = match[2] ?? '';
  return { start: caret - query.length - 1, query };
}

/** `/html[1]/body[1]/main[1]/h1[2]`: each step the tag and its index among same-tag siblings. */
export function xpathOf(element: Element): string {
  const steps: string[] = [];
  for (let node: Element | null = element; node; node = node.parentElement) {
    const tag = node.tagName.toLowerCase();
    let index = 1;
    for (let s = node.previousElementSibling; s; s = s.previousElementSibling)
      if (s.tagName.toLowerCase() === tag) index++;
    steps.unshift(`${tag}[${index}]`);
  }
  return `/${steps.join('/')}`;
}

/** Resolves paths in the form `xpathOf` writes (index optional); null when missing. */
export function elementAt(doc: Document, xpath: string): Element | null {
  const steps = xpath.split('/').filter(Boolean);
  let node: Element | null = null;
  for (const step of steps) {
    const match = /^([\w-]+)(?:\[(\d+)\])?$/.exec(step);
    if (!match) return null;
    const tag = (match[1] ?? '').toLowerCase();
    const index = Number(match[2] ?? 1);
    const children: Element[] = node ? Array.from(node.children) : doc.documentElement ? [doc.documentElement] : [];
    node = children.filter((c) => c.tagName.toLowerCase() === tag)[index - 1] ?? null;
    if (!node) return null;
  }
  return node;
}

/** The page route as threads store it: the pathname without a trailing slash, except the root. */
export function pageRoute(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
}
