declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    /** BOARD_FUZZ_SEED: replays one run of the fuzz test; empty for a new seed. */
    fuzzSeed: string;
  }
}

export {};
