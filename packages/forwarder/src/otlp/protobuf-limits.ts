import protobuf from 'protobufjs/light.js';
import { OtlpDecodeError } from './decode-error.js';
import { COUNTED, type CountedKind, type DecodeBudget } from './decode-limits.js';

// Walks the protobuf wire format of a request before protobufjs decodes it, counting the messages
// that cost work (a body of 8 MB of empty messages is millions of objects once decoded) and
// stopping at the first limit passed. It reads only tags and lengths and allocates nothing.
// protobufjs then decodes exactly what was walked: whatever the walk and protobufjs could read
// differently (a known field with another wire type, an over-long varint where protobufjs reads a
// 32-bit one, groups) is refused here as malformed.

type Type = protobuf.Type;

/** What the walk needs of a message type, flattened from its protobufjs reflection once. */
interface MessagePlan {
  readonly name: string;
  readonly counted: CountedKind | undefined;
  readonly isAnyValue: boolean;
  /** By field number; `undefined` for fields the descriptor leaves out (skipped, as protobufjs does). */
  readonly fields: (FieldPlan | undefined)[];
}

interface FieldPlan {
  readonly name: string;
  readonly wireType: number;
  /** protobufjs reads it with its 32-bit varint reader, which takes a long varint as 10 bytes. */
  readonly varint32: boolean;
  /** Set for message fields; filled in after creation (types refer to each other). */
  message: MessagePlan | undefined;
  /** An element of `ArrayValue.values`. */
  readonly arrayElement: boolean;
}

const COUNTED_TYPES: Readonly<Record<string, CountedKind | undefined>> = {
  ResourceSpans: COUNTED.resources,
  ResourceLogs: COUNTED.resources,
  ScopeSpans: COUNTED.scopes,
  ScopeLogs: COUNTED.scopes,
  Span: COUNTED.items,
  LogRecord: COUNTED.items,
  Event: COUNTED.events,
  KeyValue: COUNTED.attributes,
};
const VARINT32 = new Set(['int32', 'uint32', 'sint32', 'bool', 'enum']);
const WIRE_TYPES: Readonly<Record<string, number | undefined>> = protobuf.types.basic;
const MESSAGE = 2;

const plans = new Map<Type, MessagePlan>();

function planOf(type: Type): MessagePlan {
  const known = plans.get(type);
  if (known !== undefined) return known;
  const fields: (FieldPlan | undefined)[] = [];
  const plan: MessagePlan = {
    name: type.name,
    counted: COUNTED_TYPES[type.name],
    isAnyValue: type.name === 'AnyValue',
    fields,
  };
  plans.set(type, plan);
  for (const field of type.fieldsArray) {
    const child = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    const fieldPlan: FieldPlan = {
      name: field.name,
      // Enums (none in the descriptor today) are varints.
      wireType: child !== undefined ? MESSAGE : (WIRE_TYPES[field.type] ?? 0),
      varint32: child === undefined && (VARINT32.has(field.type) || WIRE_TYPES[field.type] === undefined),
      message: undefined,
      arrayElement: type.name === 'ArrayValue' && field.name === 'values',
    };
    fields[field.id] = fieldPlan;
    if (child !== undefined) fieldPlan.message = planOf(child);
  }
  return plan;
}

/** Thrown by a walk of the first bytes of a body when it reaches their end. */
const INCOMPLETE = Symbol('incomplete');

function malformed(reason: string): OtlpDecodeError {
  return new OtlpDecodeError(`The body is not a valid OTLP protobuf export request: ${reason}`);
}

class Walk {
  pos = 0;
  constructor(
    readonly buf: Uint8Array,
    readonly budget: DecodeBudget,
  ) {}

  /** Reads a varint of at most `maxBytes` (5 for tags and lengths: protobufjs reads them as uint32). */
  varint(end: number, maxBytes: number): number {
    const buf = this.buf;
    if (this.pos >= end) throw malformed('truncated varint');
    if (this.pos >= buf.length) throw INCOMPLETE;
    let byte = buf[this.pos++] as number;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 128;
    for (let i = 1; i < maxBytes; i += 1) {
      if (this.pos >= end) throw malformed('truncated varint');
      if (this.pos >= buf.length) throw INCOMPLETE;
      byte = buf[this.pos++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        // protobufjs keeps 32 bits of a tag or length: a larger one would read differently there.
        if (maxBytes === 5 && value > 0xffff_ffff) throw malformed('a tag or length past 32 bits');
        return value;
      }
      scale *= 128;
    }
    throw malformed('over-long varint');
  }

  message(plan: MessagePlan, end: number, anyDepth: number): void {
    while (this.pos < end) {
      const tag = this.varint(end, 5);
      const fieldId = tag >>> 3;
      const wireType = tag & 7;
      if (fieldId === 0) throw malformed('field number 0');
      const field = plan.fields[fieldId];
      if (field !== undefined && wireType !== field.wireType) {
        throw malformed(`field ${plan.name}.${field.name} has wire type ${wireType}`);
      }
      if (wireType === 2) {
        const length = this.varint(end, 5);
        if (length > end - this.pos) throw malformed('a length past the end of its message');
        const child = field === undefined ? undefined : field.message;
        if (child === undefined) {
          this.pos += length;
          continue;
        }
        if (child.counted !== undefined) this.budget.count(child.counted);
        let depth = anyDepth;
        if (child.isAnyValue) {
          depth += 1;
          this.budget.checkAnyValueDepth(depth);
          if ((field as FieldPlan).arrayElement) this.budget.count(COUNTED.arrayValues);
        }
        this.message(child, this.pos + length, depth);
      } else if (wireType === 0) {
        const start = this.pos;
        this.varint(end, 10);
        const width = this.pos - start;
        // protobufjs reads a 32-bit varint of more than 5 bytes as 10 bytes (a negative int32).
        if (width > 5 && width < 10 && field?.varint32 === true) {
          throw malformed(`over-long varint in ${plan.name}.${field.name}`);
        }
      } else if (wireType === 1 || wireType === 5) {
        const bytes = wireType === 1 ? 8 : 4;
        if (bytes > end - this.pos) throw malformed('truncated field');
        this.pos += bytes;
      } else {
        throw malformed(`wire type ${wireType} (groups are not used by OTLP)`);
      }
    }
  }
}

/**
 * Checks a protobuf export request of `type` against the budget's limits and the wire rules
 * protobufjs relies on, without decoding it: throws {@link OtlpDecodeError} (413 past a limit,
 * 400 when malformed). Linear in the body, allocation-free, recursion bounded by the AnyValue
 * depth limit.
 *
 * @example
 * checkProtobufRequest(exportTraceServiceRequest, body, new DecodeBudget('spans'));
 */
export function checkProtobufRequest(type: Type, body: Uint8Array, budget: DecodeBudget): void {
  new Walk(body, budget).message(planOf(type), body.length, 0);
}

/**
 * The same check on the first bytes of a body still arriving: throws only what the whole body
 * would throw too (a limit already passed, a malformed field), so a hostile body is refused before
 * the rest of it is read. Messages that go on past `prefix` are walked as far as it goes.
 *
 * @example
 * checkProtobufPrefix(exportTraceServiceRequest, firstMegabyte, new DecodeBudget('spans'));
 */
export function checkProtobufPrefix(type: Type, prefix: Uint8Array, budget: DecodeBudget): void {
  try {
    new Walk(prefix, budget).message(planOf(type), Number.POSITIVE_INFINITY, 0);
  } catch (error) {
    if (error !== INCOMPLETE) throw error;
  }
}
