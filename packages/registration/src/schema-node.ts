/**
 * The subset of OpenAPI v3 / Kubernetes structural-schema keywords the CRDRegistration schema uses.
 * `title` names the TypeScript type generated for a node (scripts/render-types.ts).
 */
export interface SchemaNode {
  type?: 'object' | 'array' | 'string' | 'integer' | 'boolean';
  title?: string;
  description?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: SchemaNode;
  items?: SchemaNode;
  enum?: (string | number)[];
  format?: string;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
}
