import { expect, test } from "vitest";
import { errorCatalog } from "../errors";
import { PIN_ERROR_BOARD_CODE, PIN_ERROR_STATUS, type PinErrorCode } from "./pins";
import { VOTE_ERROR_STATUS, type VoteErrorCode } from "./vote-decision";

// The ledger's codes must render through the board-wide error catalog with the same HTTP status.
test.each(Object.keys(VOTE_ERROR_STATUS) as VoteErrorCode[])("vote code %s is in the catalog with the same status", (code) => {
  expect(errorCatalog[code].status).toBe(VOTE_ERROR_STATUS[code]);
});

test.each(Object.keys(PIN_ERROR_STATUS) as PinErrorCode[])("pin code %s maps to a catalog code with the same status", (code) => {
  expect(errorCatalog[PIN_ERROR_BOARD_CODE[code]].status).toBe(PIN_ERROR_STATUS[code]);
});
