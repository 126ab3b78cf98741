import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  GraphQLList,
  GraphQLObjectType,
  type GraphQLType,
  getNamedType,
  getNullableType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  visitInParallel,
} from 'graphql';

/**
 * What one operation may cost, counted as the values its answer can hold: every field of every
 * object, with a list field multiplying what it selects by how many items it can return. Aliases
 * and fragments count as often as they appear, so `a1: products(…) a2: products(…) …` adds up.
 * A live-price island asks for about 10; 50 products with every field about 1,000.
 */
export const MAX_OPERATION_COST = 2_000;
/** Deeper than any question the schema can answer (Product → container → footnote → field is 4). */
export const MAX_OPERATION_DEPTH = 8;

export interface CostLimits {
  maxCost: number;
  /** Items a list argument such as `ids` may name when it is a variable (the schema's own cap). */
  maxListArgument: number;
  /** Items assumed for a list field without a list argument (footnotes of a product). */
  defaultListSize: number;
}

/** The items a list field can return: its list argument's length (a variable counts at its cap). */
function listSize(field: FieldNode, limits: CostLimits): number {
  for (const argument of field.arguments ?? []) {
    if (argument.value.kind === Kind.LIST) return argument.value.values.length;
    if (argument.value.kind === Kind.VARIABLE) return limits.maxListArgument;
  }
  return limits.defaultListSize;
}

/**
 * The worst-case number of values an operation's answer holds; stops counting past `limits.maxCost`.
 * Each fragment is costed once per type it is spread into and remembered: a chain of fragments that
 * each spread the next twice would otherwise be walked 2^n times.
 */
export function operationCost(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  rootType: GraphQLObjectType,
  limits: CostLimits,
): number {
  /** Costs of fragments by `name on type`; 0 while one is being costed, so a cycle counts once. */
  const costed = new Map<string, number>();
  const cost = (selections: SelectionSetNode, parent: GraphQLType): number => {
    let total = 0;
    for (const selection of selections.selections) {
      if (total > limits.maxCost) return total;
      if (selection.kind === Kind.FIELD) {
        const object = getNamedType(parent);
        const definition = object instanceof GraphQLObjectType ? object.getFields()[selection.name.value] : undefined;
        const type = definition ? getNullableType(definition.type) : undefined;
        const items = type instanceof GraphQLList ? listSize(selection, limits) : 1;
        const inner = selection.selectionSet && type ? cost(selection.selectionSet, type) : 0;
        total += items * (1 + inner);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += cost(selection.selectionSet, parent);
      } else {
        const fragment = fragments[selection.name.value];
        if (!fragment) continue;
        const key = `${selection.name.value} on ${getNamedType(parent)?.name}`;
        let fragmentCost = costed.get(key);
        if (fragmentCost === undefined) {
          costed.set(key, 0);
          fragmentCost = cost(fragment.selectionSet, parent);
          costed.set(key, fragmentCost);
        }
        total += fragmentCost;
      }
    }
    return total;
  };
  return cost(operation.selectionSet, rootType);
}

/** The operation limits: answer size and nesting depth. */
export interface OperationLimits extends CostLimits {
  maxDepth: number;
}

/**
 * A validation rule refusing an operation whose answer could hold more than `limits.maxCost` values
 * or that nests fields deeper than `limits.maxDepth`: the same rule for HTTP and WebSocket, so
 * neither path is a way around the other's limits. Depth is graphql-armor's rule (fragments walked
 * once, spreads and inline fragments adding no level); the cost is ours, as armor's cost rule does
 * not multiply by the length of a list argument.
 */
export function operationLimitsRule(limits: OperationLimits): ValidationRule {
  const depthRule = maxDepthRule({
    n: limits.maxDepth,
    flattenFragments: true,
    ignoreIntrospection: false,
    propagateOnRejection: false,
    onReject: [
      (context) =>
        context?.reportError(
          new GraphQLError(`Operation too deep: fields nest more than ${limits.maxDepth} levels`, {
            extensions: { code: 'OPERATION_TOO_DEEP' },
          }),
        ),
    ],
  });
  return (context) => visitInParallel([depthRule(context), costVisitor(context, limits)]);
}

function costVisitor(context: ValidationContext, limits: CostLimits): ASTVisitor {
  return {
    OperationDefinition(operation) {
      const schema = context.getSchema();
      const root =
        operation.operation === 'query'
          ? schema.getQueryType()
          : operation.operation === 'mutation'
            ? schema.getMutationType()
            : schema.getSubscriptionType();
      if (!root) return;
      const fragments = Object.fromEntries(
        context
          .getDocument()
          .definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
          .map((d) => [d.name.value, d]),
      );
      const cost = operationCost(operation, fragments, root, limits);
      if (cost > limits.maxCost) {
        context.reportError(
          new GraphQLError(`Operation too costly: it could return more than ${limits.maxCost} values`, {
            nodes: [operation],
            extensions: { code: 'OPERATION_TOO_COSTLY' },
          }),
        );
      }
    },
  };
}
