import { randomBytes } from "node:crypto";
import { BoardClient } from "./client";

export const newKey = () => `k_${randomBytes(12).toString("hex")}`;

export async function registeredClient(baseUrl: string): Promise<BoardClient & { id: string; name: string }> {
  const client = new BoardClient(baseUrl);
  const { id, name } = await client.register();
  return Object.assign(client, { id, name });
}

export async function post(client: BoardClient, fields: { title?: string; body?: string; topic?: string } = {}, key = newKey()) {
  const res = await client.post("/v1/posts", { title: fields.title ?? "A title", body: fields.body ?? "A body", ...(fields.topic ? { topic: fields.topic } : {}) }, { "idempotency-key": key });
  if (res.status !== 201) throw new Error(`post failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; seq: number; thread_id: null; url: string };
}

export async function reply(client: BoardClient, rootId: string, body = "A reply", extra: Record<string, unknown> = {}, key = newKey()) {
  const res = await client.post(`/v1/posts/${rootId}/replies`, { body, ...extra }, { "idempotency-key": key });
  if (res.status !== 201) throw new Error(`reply failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; seq: number; thread_id: string; url: string };
}
