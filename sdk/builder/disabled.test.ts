import { Window } from 'happy-dom';
import t from 'tap';
import { parseCslp } from '../cslp/parse.ts';
import { disabledReason, disabledState, type FieldContext, VARIANT_CLASSES } from './disabled.ts';
import { TEXTS } from './text.ts';

const doc = new Window().document;
const allowed = { create: true, read: true, update: true, delete: true, publish: true };

function field(overrides: Partial<FieldContext> = {}, classes: string[] = []): FieldContext {
  const element = doc.createElement('h2') as unknown as Element;
  element.classList.add(...classes);
  return {
    cslp: parseCslp('page.e1.en-GB.title')!,
    schema: { data_type: 'text' },
    permissions: allowed,
    element,
    masterLocale: 'en-GB',
    locale: 'en-GB',
    variant: undefined,
    audienceMode: false,
    ...overrides,
  };
}

t.test('every disabled reason shows its own text', async (t) => {
  t.equal(disabledReason(field()), '', 'an ordinary field is editable');
  t.equal(disabledReason(field({ permissions: { ...allowed, update: false } })), TEXTS.entryUpdate);
  t.equal(
    disabledReason(field({ schema: { data_type: 'text', field_metadata: { updateRestrict: true } } })),
    TEXTS.readOnly,
  );
  t.equal(
    disabledReason(field({ schema: { data_type: 'text', non_localizable: true }, masterLocale: 'en-us' })),
    TEXTS.localizedEntry,
  );
  t.equal(
    disabledReason(field({ schema: { data_type: 'text', non_localizable: true } })),
    '',
    'non-localizable in the master locale stays editable',
  );
  t.equal(disabledReason(field({ variant: 'cs1', locale: 'de-DE' })), TEXTS.notLocalized);
  t.equal(
    disabledReason(field({ schema: { data_type: 'text', field_metadata: { isUnlinkedVariant: true } } })),
    TEXTS.unlinkedVariant,
  );
  t.equal(disabledReason(field({ audienceMode: true })), TEXTS.audienceMode);
  t.equal(disabledReason(field({ audienceMode: true }, [VARIANT_CLASSES.base])), '');
  t.equal(disabledReason(field({ audienceMode: true }, [VARIANT_CLASSES.variant])), '');
  t.equal(disabledReason(field({ audienceMode: true }, [VARIANT_CLASSES.disabled])), TEXTS.variantMismatch);
});

t.test('the entry permission is reported before the field restrictions', async (t) => {
  const both = field({
    permissions: { ...allowed, update: false },
    schema: { data_type: 'text', field_metadata: { updateRestrict: true } },
  });
  t.equal(disabledReason(both), TEXTS.entryUpdate);
});

t.test(
  '4.x canLinkVariant: an unlinked field offers linking, or names who can; a 3.2.5 editor keeps its text',
  async (t) => {
    const unlinked = (canLinkVariant?: boolean) =>
      field({ schema: { data_type: 'text', field_metadata: { isUnlinkedVariant: true, canLinkVariant } } });
    t.same(disabledState(unlinked(true)), { reason: TEXTS.unlinkedCanLink, request: 'link' });
    t.same(disabledState(unlinked(false)), { reason: TEXTS.unlinkedCannotLink });
    t.same(disabledState(unlinked()), { reason: TEXTS.unlinkedVariant });
    t.equal(
      TEXTS.unlinkedCannotLink,
      'This field is not editable as it is not linked to the selected variant. Contact your stack admin or owner to link it.',
      '4.4.1’s words',
    );
  },
);

t.test('4.x lower-order variant fields are editable in audience mode unless their permission failed', async (t) => {
  const lower = [VARIANT_CLASSES.variant, VARIANT_CLASSES.lower];
  t.equal(disabledReason(field({ audienceMode: true, inVariant: { update: true, error: false } }, lower)), '');
  t.equal(
    disabledReason(field({ audienceMode: true, inVariant: { update: true, error: true } }, lower)),
    TEXTS.variantMismatch,
  );
  t.equal(
    disabledReason(field({ audienceMode: true, inVariant: { update: true, error: true } }, [VARIANT_CLASSES.variant])),
    '',
    'the selected variant’s own field stays editable',
  );
  t.equal(disabledReason(field({ inVariant: { update: true, error: true } }, lower)), '', 'outside audience mode');
});
