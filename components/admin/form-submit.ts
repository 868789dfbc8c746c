import type { FieldValues, UseFormReturn } from "react-hook-form";
import { showServerErrors } from "@/components/ui/form";

/**
 * A kit form's submit handler that sends the parsed values through `action` (a mutation's
 * mutateAsync): a refusal goes onto the form (showServerErrors), success to `then`.
 */
export function submitWith<In extends FieldValues, Out, Result>(
  form: UseFormReturn<In, unknown, Out>,
  action: (values: Out) => Promise<Result>,
  then?: (result: Result, values: Out) => unknown,
) {
  return form.handleSubmit(async (values) => {
    let result: Result;
    try {
      result = await action(values);
    } catch (error) {
      showServerErrors(form, error);
      return;
    }
    await then?.(result, values);
  });
}
