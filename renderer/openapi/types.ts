/**
 * What the plan hands a render worker for one generated API page: the operation boiled down to
 * plain, acyclic data (schemas already resolved and cut where they recur), so a worker never sees
 * the whole spec and a page's message costs only what the page shows.
 */
import type { ServerTemplate } from './server-variables.js';

/** A value as JSON carries it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };

export interface ApiSchema {
  /** Shown type: `string`, `integer`, `object`, `string[]`, `Pet`, `string | null`… */
  type: string;
  title?: string;
  description?: string;
  format?: string;
  /** 3.1 `contentMediaType` (a string holding a file when it is not a text type). */
  contentMediaType?: string;
  enum?: JsonValue[];
  /** An open enum's known values (`anyOf: [string, {enum}]`): listed, other values accepted too. */
  known?: JsonValue[];
  default?: JsonValue;
  /** `x-default`: the playground's value when `api.examples.prefill` is on; the page shows `default` only. */
  xDefault?: JsonValue;
  /**
   * `Required range: 1 <= x <= 100`, `Maximum string length: 255`, `Pattern: ^a` …: which line and
   * its value, put in words by the page in its own language (renderer/i18n/api-strings.ts). A
   * compacted schema is shared by every page that shows it, whatever their languages.
   */
  constraints?: ApiConstraint[];
  /**
   * What an `if`/`then`/`else` schema around this field says of it ("Required when `country` is
   * `US`."), shown after its description; kept as data, put in words by the page (as constraints).
   */
  conditions?: ApiCondition[];
  deprecated?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  nullable?: boolean;
  /** Object properties, in document order. */
  properties?: ApiProperty[];
  /** Items of an array. */
  items?: ApiSchema;
  /** The `xml` object (element name, wrapped arrays, attributes): how an XML example writes it. */
  xml?: { name?: string; wrapped?: boolean; attribute?: boolean };
  /** 3.1 `prefixItems`: a tuple's positions, in order (`items` then types what may follow them). */
  prefixItems?: ApiSchema[];
  /** `oneOf`/`anyOf` choices (Mintlify shows both alike, as tabs). */
  variants?: { title: string; schema: ApiSchema }[];
  /** The first `example` / `examples[0]` of the schema, as written. */
  example?: JsonValue;
  /** The schema recurs here (a cycle) or the page's budget ran out: not expanded further. */
  cut?: 'circular' | 'budget';
  /** `x-mint.pre` / `x-mint.post` and `api.params.post` pills. */
  pre?: string[];
  post?: string[];
  /** `x-mint.groups` (personalization): a property or `oneOf` variant shown only to these groups. */
  groups?: string[];
  /** `x-mint-enum`: enum value (as shown) → the groups that see it; values not listed are for everyone. */
  enumGroups?: Record<string, string[]>;
}

export interface ApiProperty {
  name: string;
  required: boolean;
  schema: ApiSchema;
}

export interface ApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  deprecated: boolean;
  description?: string;
  schema: ApiSchema;
  example?: JsonValue;
  /** `style`/`explode` as written (defaults by location apply where absent): how a request carries the value. */
  style?: string;
  explode?: boolean;
  /** The parameter is described by `content` (e.g. a JSON-encoded query value): its media type. */
  contentType?: string;
}

export interface ApiMedia {
  /** `application/json`, `multipart/form-data`… */
  type: string;
  schema?: ApiSchema;
  /** Named examples (`examples`) or the one `example` (named `Example`), else generated from the schema in the worker. */
  examples: { name: string; value: JsonValue }[];
  /** Form fields whose `encoding` says `style: deepObject` (Stripe's `metadata[key]=…`, `expand[]=…`). */
  deepFields?: string[];
}

export interface ApiResponse {
  status: string;
  description?: string;
  media: ApiMedia[];
  headers: ApiParameter[];
}

export interface ApiSecurity {
  /** One alternative of the operation's `security`: every scheme in it applies together; none (`{}`) makes credentials optional. */
  schemes: {
    name: string;
    kind: 'bearer' | 'basic' | 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
    /** apiKey: where and under which name. */
    in?: 'header' | 'query' | 'cookie';
    param?: string;
    /** http: the scheme (`bearer`, `basic`, `digest`), bearerFormat. */
    scheme?: string;
    bearerFormat?: string;
    description?: string;
    scopes?: string[];
    /** `x-default` of an apiKey or bearer scheme: the playground's credential field starts with it. */
    default?: string;
  }[];
}

/** One request of an operation's `callbacks`: the API calls the caller's URL (`expression`). */
export interface ApiCallback {
  name: string;
  expression: string;
  method: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  requestBody?: { required: boolean; description?: string; media: ApiMedia[] };
  responses: ApiResponse[];
}

export interface ApiOperation {
  /** `GET`, …, or `WEBHOOK`. */
  method: string;
  /** The path template, or a webhook's name. */
  path: string;
  /** The spec's repository path. */
  specFile: string;
  title: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  /** Base URLs to show (spec `servers`, or `api.mdx.server` / `api.baseUrl`), with variables filled with their defaults. */
  servers: string[];
  /** Each server's URL template and variables (null: it has none), by the index of `servers`; absent when none has any. */
  serverTemplates?: (ServerTemplate | null)[];
  /** `api.url: "full"`: always show the base URL; otherwise only when there are several. */
  showBaseUrl: boolean;
  security: ApiSecurity[];
  parameters: ApiParameter[];
  requestBody?: { required: boolean; description?: string; media: ApiMedia[] };
  responses: ApiResponse[];
  callbacks?: ApiCallback[];
  /** `x-codeSamples` / `x-code-samples`: replace the generated request examples. */
  codeSamples?: { lang: string; label?: string; source: string }[];
  /** Languages for generated request examples (`api.examples.languages`, Mintlify's default otherwise). */
  languages: string[];
  /** `api.examples.defaults: "required"`: leave optional parameters out of generated examples. */
  requiredOnly: boolean;
  /** `api.examples.autogenerate: false`: only hand-written samples. */
  autogenerate: boolean;
  /** `api.params.expanded: "all"`: nested fields open by default. */
  expandAll: boolean;
  /** `x-mint.content` (MDX shown above the generated reference), on generated pages. */
  content?: string;
  /** `x-mint.metadata` and the generated title/description: the frontmatter of a generated page. */
  metadata?: Record<string, JsonValue>;
  /**
   * Where the page's Markdown finds the operation's part of its spec (openapi/spec-fragment.ts);
   * absent when `markdown.schema` is false.
   */
  specFragment?: import('./spec-fragment.js').FragmentRef;
}

/** An `openapi-schema: Name` page: one schema of `components.schemas`. */
export interface ApiSchemaPage {
  name: string;
  specFile: string;
  schema: ApiSchema;
  expandAll: boolean;
}

/** One message of an AsyncAPI channel. */
export interface ApiMessage {
  name: string;
  title: string;
  description?: string;
  contentType?: string;
  payload?: ApiSchema;
  headers?: ApiSchema;
  /** The message's `examples[].payload`; one is generated from the payload schema when there are none. */
  examples: { name: string; value: JsonValue }[];
}

/** An AsyncAPI channel page (`asyncapi` in navigation, `asyncapi: "spec channel"` frontmatter). */
export interface ApiChannelPage {
  /** The channel's key in `channels`. */
  id: string;
  /** Its address (3.0) or name (2.x). */
  address: string;
  title: string;
  description?: string;
  specFile: string;
  /** `ws`, `wss`, `kafka`… of the first server. */
  protocol?: string;
  servers: string[];
  parameters: ApiParameter[];
  /** `send`: messages the application sends; `receive`: messages it receives (AsyncAPI's own words). */
  operations: { action: 'send' | 'receive'; id: string; title?: string; description?: string; messages: ApiMessage[] }[];
  /** Messages of the channel no operation names. */
  messages: ApiMessage[];
  expandAll: boolean;
}

/** Attached to a planned page that shows an operation, a schema or an AsyncAPI channel. */
export type ApiPageData = { kind: 'operation'; operation: ApiOperation } | { kind: 'schema'; schema: ApiSchemaPage } | { kind: 'channel'; channel: ApiChannelPage };

/** A constraint line's words (a key of the API strings' table) and the value it shows as code, if any. */
export interface ApiConstraint {
  kind: 'requiredRange' | 'minLength' | 'maxLength' | 'pattern' | 'keyPattern' | 'minItems' | 'maxItems' | 'uniqueItems' | 'multipleOf' | 'minProperties' | 'maxProperties';
  value?: string;
}

/** A part of an `if` condition: `country` is `US`, `kind` is one of `a`, `b`, `coupon` is given (names and values as code). */
export type ApiConditionPart = { kind: 'is'; name: string; value: string } | { kind: 'isOneOf'; name: string; values: string[] } | { kind: 'given'; name: string };

/**
 * One sentence an `if`/`then`/`else` schema adds under a field: in which branch (`then`: when the
 * condition holds, `else`: otherwise), the condition when it is simple enough to say, and what the
 * branch asks of the field: that it is required, or its values (`oneOf`, as shown) and constraints.
 */
export interface ApiCondition {
  branch: 'then' | 'else';
  when?: ApiConditionPart[];
  required?: true;
  oneOf?: string[];
  constraints?: ApiConstraint[];
}
