import { webContext } from "@board/app/web-context";
import { field, type ConsoleAction } from "../_lib/actions";

/** The limits editor's forms; changeLimit checks the role, the key, the range and the reason. */
export const capacityActions: Record<string, ConsoleAction> = {
  "set-limit": async (form, operator, requestId) => {
    const view = await webContext().operator.changeLimit(operator, { key: field(form, "key"), value: field(form, "value"), reason: field(form, "reason"), requestId });
    return { message: `${view.label} is now ${view.value} ${view.unit}; every instance applies it within seconds.` };
  },
  "reset-limit": async (form, operator, requestId) => {
    const view = await webContext().operator.changeLimit(operator, { key: field(form, "key"), value: null, reason: field(form, "reason"), requestId });
    return { message: `${view.label} is back to its default, ${view.value} ${view.unit}.` };
  },
};
