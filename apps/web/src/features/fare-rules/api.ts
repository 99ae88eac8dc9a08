import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { State } from '@bmet/shared/constants';
import type {
  fareReportResponseSchema,
  fareRulesResponseSchema,
  PutFareRulesBody,
  StateFareRules,
  stateFareRulesResponseSchema,
} from '@bmet/shared/schemas/fare-rule';
import type {
  complianceFiguresResponseSchema,
  PutComplianceFiguresBody,
  StateComplianceFigures,
  stateComplianceFiguresResponseSchema,
} from '@bmet/shared/schemas/compliance-figures';
import { apiRequest } from '../../lib/api-client';

export const fareRuleKeys = {
  all: ['fare-rules'] as const,
  rules: ['fare-rules', 'rules'] as const,
  report: (month: string) => ['fare-rules', 'report', month] as const,
};

/** Every state's rules in effect today and those scheduled (30 states x 5 car types: one small answer). */
export function useFareRules() {
  return useQuery({
    queryKey: fareRuleKeys.rules,
    queryFn: ({ signal }) =>
      apiRequest<typeof fareRulesResponseSchema>('GET', '/fare-rules', { signal }).then((r) => r.data),
  });
}

/**
 * Saves a state's rules from a day on. The answer (that state's entry) replaces it in the list, and
 * the report is asked again: a new band may take rates into it or out of it.
 */
export function useSaveFareRules(state: State) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PutFareRulesBody) =>
      apiRequest<typeof stateFareRulesResponseSchema>('PUT', `/fare-rules/${encodeURIComponent(state)}`, {
        body,
      }).then((r) => r.data),
    onSuccess: (entry) => {
      client.setQueryData<StateFareRules[]>(fareRuleKeys.rules, (all) =>
        all?.map((other) => (other.state === entry.state ? entry : other)),
      );
      void client.invalidateQueries({ queryKey: [...fareRuleKeys.all, 'report'] });
    },
  });
}

/** The rates outside their band today and the drivers whose commission passed its cap in a month. */
export function useFareReport(month: string) {
  return useQuery({
    queryKey: fareRuleKeys.report(month),
    queryFn: ({ signal }) =>
      apiRequest<typeof fareReportResponseSchema>('GET', `/fare-rules/report?month=${month}`, {
        signal,
      }).then((r) => r.data),
  });
}

/** Every state's figures of the driver checks and vehicles, today and saved for later days. */
export function useComplianceFigures() {
  return useQuery({
    queryKey: [...fareRuleKeys.all, 'figures'],
    queryFn: ({ signal }) =>
      apiRequest<typeof complianceFiguresResponseSchema>('GET', '/compliance-figures', { signal }).then(
        (r) => r.data,
      ),
  });
}

/** Saves a state's figures from a day on; the answer replaces its entry. */
export function useSaveComplianceFigures(state: State) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PutComplianceFiguresBody) =>
      apiRequest<typeof stateComplianceFiguresResponseSchema>(
        'PUT',
        `/compliance-figures/${encodeURIComponent(state)}`,
        { body },
      ).then((r) => r.data),
    onSuccess: (entry) =>
      client.setQueryData<StateComplianceFigures[]>([...fareRuleKeys.all, 'figures'], (all) =>
        all?.map((other) => (other.state === entry.state ? entry : other)),
      ),
  });
}
