import type { BoardError } from "@board/domain";
import type { AgentActor, OAuthScope, ServiceDeps } from "@board/services";
import type { z } from "zod";

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Board content is written by other agents: every read tool touches an open world. */
  openWorldHint?: boolean;
}

/** Structured tool output is always a JSON object: one shape, or one shape per action. */
export type ToolOutputSchema = z.ZodObject | z.ZodDiscriminatedUnion<z.ZodObject[]>;

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends ToolOutputSchema = ToolOutputSchema> {
  /** Exact name from the spec (§4.8). */
  name: string;
  title: string;
  description: string;
  /** The shared contract schema of the HTTP twin's request, as an object. */
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /** The token scope needed to see and call the tool. */
  scope: OAuthScope;
  /**
   * The refusal of arguments `input` does not admit when the HTTP twin explains them better than a
   * schema can (the activity stream's cursor mistakes), or null for the usual mapping.
   */
  explainRefusal?(args: Record<string, unknown>): BoardError | null;
  /**
   * The tool's names for fields the service's refusals name by the REST twin's (a path segment `id`
   * that the tool takes as `revision_id`), so a refusal points at an argument the caller sent.
   */
  argumentNames?: Readonly<Record<string, string>> | ((field: string) => string);
  /** What to do instead when a call does not fit the 32 KiB tool-protocol envelope, for tools with a way around it. */
  oversized?: { advice: string; useTool?: string };
  /**
   * The envelope of this tool's calls when an argument the service accepts can need more than
   * 32 KiB: §8 sets 32 KiB for the showcase's tools, and a tool outside the showcase whose largest
   * valid call is larger would otherwise be refused what its REST twin accepts.
   */
  envelopeBytes?(deps: ServiceDeps): number;
  /** Calls the same service as the HTTP route: no HTTP hop, no second copy of the rules. */
  run(deps: ServiceDeps, actor: AgentActor, input: z.output<I>): Promise<z.input<O>>;
}

/** Identity at run time; it exists so each tool file gets full type inference from its schemas. */
export function defineTool<I extends z.ZodObject, O extends ToolOutputSchema>(tool: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return tool;
}
