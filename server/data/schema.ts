import {
  GraphQLEnumType,
  GraphQLError,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLNullableType,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLType,
} from 'graphql';
import { isValidLocaleCode } from '../../common/locales.ts';
import { CATALOG_WRITE, type Viewer } from './auth.ts';
import type { Availability, Catalog, Product } from './catalog.ts';
import { MAX_OPERATION_COST, MAX_OPERATION_DEPTH, operationLimitsRule } from './operation-limits.ts';

/**
 * The data backend's GraphQL schema. Code-first, so the
 * resolvers are part of the schema object both transports share: mercurius for HTTP, graphql-ws for
 * the socket. Field names follow the spec's shapes (`pricingFootnotesContainer.pricingFootnotes`).
 */

export interface DataContext {
  catalog: Catalog;
  viewer: Viewer | null;
}

/** One request or subscription asks for at most this many products. */
export const MAX_IDS = 50;

/** Answer-size and depth limits of every operation, over HTTP and WebSocket alike. */
export const operationLimits = operationLimitsRule({
  maxCost: MAX_OPERATION_COST,
  maxDepth: MAX_OPERATION_DEPTH,
  maxListArgument: MAX_IDS,
  defaultListSize: 10,
});

const nonNull = <T extends GraphQLNullableType>(type: T) => new GraphQLNonNull(type);
const list = <T extends GraphQLType>(type: T) => new GraphQLList(type);

const AvailabilityType = new GraphQLEnumType({
  name: 'Availability',
  values: {
    IN_STOCK: { value: 'in_stock' satisfies Availability },
    LOW_STOCK: { value: 'low_stock' satisfies Availability },
    OUT_OF_STOCK: { value: 'out_of_stock' satisfies Availability },
  },
});

const MoneyType = new GraphQLObjectType({
  name: 'Money',
  fields: {
    amount: { type: nonNull(GraphQLFloat) },
    currency: { type: nonNull(GraphQLString) },
    /** Formatted for the locale exactly as the server render formats it. */
    formatted: { type: nonNull(GraphQLString) },
  },
});

const PricingFootnoteType = new GraphQLObjectType({
  name: 'PricingFootnote',
  fields: { code: { type: nonNull(GraphQLString) }, formattedFootnote: { type: nonNull(GraphQLString) } },
});

const PricingFootnotesContainerType = new GraphQLObjectType({
  name: 'PricingFootnotesContainer',
  fields: { pricingFootnotes: { type: nonNull(list(nonNull(PricingFootnoteType))) } },
});

const ProductType = new GraphQLObjectType<Product, DataContext>({
  name: 'Product',
  fields: {
    id: { type: nonNull(GraphQLID) },
    locale: { type: nonNull(GraphQLString) },
    name: { type: nonNull(GraphQLString) },
    price: { type: nonNull(MoneyType) },
    availability: { type: nonNull(AvailabilityType) },
    pricingFootnotesContainer: { type: PricingFootnotesContainerType },
    version: { type: nonNull(GraphQLInt), description: 'Grows with every change; clients keep the newest.' },
  },
});

const idsArg = { type: nonNull(list(nonNull(GraphQLID))) };
const localeArg = { type: nonNull(GraphQLString) };

function checkLocale(locale: string): void {
  if (!isValidLocaleCode(locale)) throw userError(`Locale ${JSON.stringify(locale)} is not of the form xx-XX`);
}

function checkIds(ids: readonly string[]): void {
  if (ids.length > MAX_IDS) throw userError(`At most ${MAX_IDS} ids per request`);
}

function userError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

const QueryType = new GraphQLObjectType<unknown, DataContext>({
  name: 'Query',
  fields: {
    product: {
      type: ProductType,
      args: { id: { type: nonNull(GraphQLID) }, locale: localeArg },
      resolve: (_root, args: { id: string; locale: string }, { catalog }) => {
        checkLocale(args.locale);
        return catalog.get(args.id, args.locale) ?? null;
      },
    },
    products: {
      type: nonNull(list(ProductType)),
      description: 'In the order asked; null for an id the storefront does not sell.',
      args: { ids: idsArg, locale: localeArg },
      resolve: (_root, args: { ids: string[]; locale: string }, { catalog }) => {
        checkLocale(args.locale);
        checkIds(args.ids);
        return args.ids.map((id) => catalog.get(id, args.locale) ?? null);
      },
    },
  },
});

const MutationType = new GraphQLObjectType<unknown, DataContext>({
  name: 'Mutation',
  fields: {
    updateProduct: {
      type: ProductType,
      description: `Changes a price or availability and notifies subscribers. Needs a token with ${CATALOG_WRITE}.`,
      args: {
        id: { type: nonNull(GraphQLID) },
        locale: localeArg,
        amount: { type: GraphQLFloat },
        availability: { type: AvailabilityType },
      },
      resolve: (
        _root,
        args: { id: string; locale: string; amount?: number | null; availability?: Availability | null },
        { catalog, viewer },
      ) => {
        if (!viewer) throw new GraphQLError('A token is required', { extensions: { code: 'UNAUTHENTICATED' } });
        if (!viewer.roles.includes(CATALOG_WRITE)) {
          throw new GraphQLError('Not allowed to change products', { extensions: { code: 'FORBIDDEN' } });
        }
        checkLocale(args.locale);
        try {
          return (
            catalog.update({
              id: args.id,
              locale: args.locale,
              ...(args.amount == null ? {} : { amount: args.amount }),
              ...(args.availability == null ? {} : { availability: args.availability }),
            }) ?? null
          );
        } catch (error) {
          throw userError((error as Error).message);
        }
      },
    },
  },
});

const SubscriptionType = new GraphQLObjectType<unknown, DataContext>({
  name: 'Subscription',
  fields: {
    productUpdated: {
      type: nonNull(ProductType),
      description: 'Every later change of price or availability of these products in this locale.',
      args: { ids: idsArg, locale: localeArg },
      subscribe: (_root, args: { ids: string[]; locale: string }, { catalog }) => {
        checkLocale(args.locale);
        checkIds(args.ids);
        return catalog.watch(args.ids, args.locale);
      },
      resolve: (product) => product,
    },
  },
});

export const schema = new GraphQLSchema({
  query: QueryType,
  mutation: MutationType,
  subscription: SubscriptionType,
});
