import { mountPlayground, type PlaygroundPicture } from "../../../packages/svg-runtime/src/host/playground.js";

// Browser entry for the test playground: pictures come from the same-origin JSON the test server prepared.
const set = new URLSearchParams(location.search).get("set") ?? "default";
const response = await fetch(`/pictures/${encodeURIComponent(set)}.json`);
const pictures = (await response.json()) as PlaygroundPicture[];
const root = document.getElementById("playground");
if (root) {
  mountPlayground(root, pictures);
  root.dataset.ready = "true";
}
