/**
 * Every number that bounds admission or a running instance, in one table so the README, the
 * worker and the host agree. Changing a value changes behaviour of new builds only: released
 * builds carry their own copy inside the worker bundle.
 */
export const SVG_BUDGETS = {
  /** Per-article SVG source (§8). The caller passes which limit applies. */
  articleSourceBytes: 1024 * 1024,
  /** SVG inside a comment (§8). */
  commentSourceBytes: 256 * 1024,
  /** Elements plus text nodes, at admission and live. */
  nodes: 20_000,
  /** Path commands counted as documented in README (explicit + implicit repeats + polyline points). */
  pathCommands: 250_000,
  /** Element nesting depth. */
  depth: 64,
  /** Attributes on one element. */
  attributesPerElement: 48,
  /** Characters in one attribute value (long path data is the usual reason to approach this). */
  attributeValueChars: 256 * 1024,
  /** Characters in one text node (style sheets and script are counted by bytes instead). */
  textNodeChars: 16 * 1024,
  /** CSS characters in the whole picture (style sheets, style attributes, presentation values); bounds parser work. */
  cssChars: 128 * 1024,
  /**
   * Parentheses, brackets and braces open at once in CSS (`:not(:not(`, nested `@media`, `calc((`).
   * css-tree parses, walks and generates recursively, and the worker and browsers have smaller
   * stacks than Node; real style sheets stay far below this.
   */
  cssNestingDepth: 32,
  /** Characters in one id. */
  idChars: 64,
  /** Filter primitives inside one `filter` element, and in the whole picture. */
  filterPrimitivesPerFilter: 16,
  filterPrimitivesTotal: 128,
  /**
   * Numeric caps that bound the cost of individual filter primitives. They also cap the same
   * parameters when SMIL animates them, and the CSS blur() and drop-shadow() radius (in px).
   */
  filterStdDeviationMax: 100,
  filterMorphologyRadiusMax: 50,
  filterTurbulenceOctavesMax: 8,
  filterDisplacementScaleMax: 1000,
  /** Admission stops collecting after this many errors so that output stays bounded. */
  admissionErrorsReported: 50,

  /** QuickJS heap (§8). */
  interpreterMemoryBytes: 64 * 1024 * 1024,
  /** QuickJS native stack; larger values crashed the host process on deep recursion. */
  interpreterStackBytes: 256 * 1024,
  /** Interrupt-handler polls allowed per callback (QuickJS polls roughly every 10k operations). */
  instructionPollsPerCallback: 600,
  /** Wall time of one callback (top-level script, event handler or timer), checked at each poll. */
  handlerWallMs: 250,
  /** Wall time of all callbacks inside one frame, checked at each poll. */
  frameWallMs: 400,
  /** Host watchdog: a worker that has not answered a frame or event after this long is terminated. */
  watchdogMs: 1000,
  /** Extra watchdog time for the first request, which also instantiates QuickJS in the new worker (slow on a loaded machine); with the watchdog, 2 s in all. */
  startupAllowanceMs: 1000,
  /** Live timers at once. */
  timersActive: 64,
  /** Timers created within one second of virtual time. */
  timersCreatedPerSecond: 240,
  /** Smallest delay or period; shorter requests are clamped up to it. */
  timerMinDelayMs: 16,
  /** Mutations sent to the host in one frame. */
  mutationsPerFrame: 2_000,
  /** Mutations over the lifetime of an instance. */
  mutationsTotal: 5_000_000,
  /** Characters in one mutation value (attribute value or text). */
  mutationValueChars: 64 * 1024,
  /** Largest step of the virtual clock per frame, so a paused or hidden tab never fast-forwards. */
  frameClockStepMaxMs: 100,
  /** Events queued for one instance before new ones are dropped as input overflow. */
  eventsQueued: 64,
  /** Running instances per reader (across the origin's tabs via Web Locks). */
  runningInstancesPerReader: 2,
} as const;

export type SvgBudgets = typeof SVG_BUDGETS;

/** Codes reported when a running instance is stopped. */
export type RuntimeBudgetCode =
  | "BUDGET_INSTRUCTIONS"
  | "BUDGET_HANDLER_TIME"
  | "BUDGET_FRAME_TIME"
  | "BUDGET_WATCHDOG"
  | "BUDGET_MEMORY"
  | "BUDGET_STACK"
  | "BUDGET_TIMERS"
  | "BUDGET_MUTATIONS_FRAME"
  | "BUDGET_MUTATIONS_TOTAL"
  | "BUDGET_NODES"
  | "BUDGET_PATH_COMMANDS";

export const RUNTIME_BUDGET_EXPLANATIONS: Record<RuntimeBudgetCode, string> = {
  BUDGET_INSTRUCTIONS: "A script callback ran too many instructions.",
  BUDGET_HANDLER_TIME: "A script callback ran longer than its time budget.",
  BUDGET_FRAME_TIME: "Script work inside one animation frame took too long.",
  BUDGET_WATCHDOG: "The script stopped answering and was terminated.",
  BUDGET_MEMORY: "The script used more than its memory budget.",
  BUDGET_STACK: "The script recursed too deeply.",
  BUDGET_TIMERS: "The script created too many timers.",
  BUDGET_MUTATIONS_FRAME: "The script changed the picture too many times in one frame.",
  BUDGET_MUTATIONS_TOTAL: "The script changed the picture too many times in total.",
  BUDGET_NODES: "The picture grew beyond the node budget.",
  BUDGET_PATH_COMMANDS: "The picture grew beyond the path-command budget.",
};
