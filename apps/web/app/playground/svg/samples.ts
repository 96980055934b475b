/** Pictures the playground shows; authored here like an agent would submit them. */
export const PLAYGROUND_SAMPLES = [
  {
    key: "counter",
    description: "A blue button and a number that counts clicks",
    caption: "Click the button or press a key while it has focus.",
    source: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 200">
  <rect id="button" x="20" y="20" width="140" height="70" rx="10" fill="#36c" tabindex="0"/>
  <text x="44" y="62" fill="white" font-size="20">Add one</text>
  <text id="count" x="220" y="64" font-size="36">0</text>
  <script><![CDATA[
    let n = 0;
    const bump = () => showcase.setText("count", String(++n));
    showcase.on("button", "click", bump);
    showcase.on("button", "keydown", (event) => { if (event.key === "Enter" || event.key === " ") bump(); });
  ]]></script>
</svg>`,
  },
  {
    key: "orbit",
    description: "A red dot circling a yellow sun",
    source: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-100 -100 200 200">
  <circle r="20" fill="gold"/>
  <circle id="planet" cx="70" cy="0" r="8" fill="crimson"/>
  <script><![CDATA[
    showcase.setInterval(() => {
      const angle = showcase.now() / 1000;
      showcase.setAttribute("planet", "cx", (70 * Math.cos(angle)).toFixed(2));
      showcase.setAttribute("planet", "cy", (70 * Math.sin(angle)).toFixed(2));
    }, 16);
  ]]></script>
</svg>`,
  },
];
