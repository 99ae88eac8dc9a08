import { Text } from '@mantine/core';
import { useDeferredValue } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { m } from '@bmet/shared/paraglide/messages';
import { Cell, ListTable } from '../../components/list-table';
import { LoadMoreButton } from '../../components/load-more-button';
import { formatDateTime, formatRupees } from '../../lib/format';
import { walletQuery } from './api';

/** The kinds the driver app wrote, in the reader's language; an unknown one as it was written. */
function kindLabel(kind: string): string {
  const labels: Record<string, () => string> = {
    Recharge: m.walletKindRecharge,
    'Ride Accepted': m.walletKindRideAccepted,
    'Money Sent': m.walletKindMoneySent,
    'Money Received': m.walletKindMoneyReceived,
    '5 Star Reward': m.walletKindFiveStarReward,
    'Referral Bonus': m.walletKindReferralBonus,
  };
  return labels[kind]?.() ?? kind;
}

/** The driver's wallet as the driver app kept it: its balance and its entries, newest first. Read-only. */
export function WalletSection({ driverId }: { driverId: string }) {
  const wallet = useDeferredValue(useInfiniteQuery(walletQuery(driverId)));
  if (wallet.isPending)
    return (
      <Text c="dimmed" data-content-loading="">
        {m.loadingWallet()}
      </Text>
    );
  if (wallet.isError) return <Text c="red">{wallet.error.message}</Text>;
  const balance = wallet.data.pages[0]?.data.balance ?? null;
  const entries = wallet.data.pages.flatMap((page) => page.data.entries);
  return (
    <>
      <Text fw={600}>
        {balance === null ? m.walletBalanceUnknown() : m.walletBalance({ amount: formatRupees(balance) })}
      </Text>
      {entries.length === 0 ? (
        <Text c="dimmed">{m.walletNoEntries()}</Text>
      ) : (
        <ListTable
          label={m.driversSectionWallet()}
          columns={[
            m.walletDate(),
            m.walletKind(),
            m.walletAmount(),
            m.walletBalanceAfter(),
            m.walletOrderId(),
          ]}
        >
          {entries.map((entry) => {
            const amount = formatRupees(entry.amount);
            return (
              <tr key={entry.id} role="row">
                <Cell label={m.walletDate()}>{formatDateTime(entry.createdAt)}</Cell>
                <Cell label={m.walletKind()}>{kindLabel(entry.kind)}</Cell>
                <Cell label={m.walletAmount()}>
                  {entry.credit ? m.walletCredit({ amount }) : m.walletDebit({ amount })}
                </Cell>
                <Cell label={m.walletBalanceAfter()}>
                  {entry.balanceAfter === null ? '-' : formatRupees(entry.balanceAfter)}
                </Cell>
                <Cell label={m.walletOrderId()}>{entry.orderId ?? '-'}</Cell>
              </tr>
            );
          })}
        </ListTable>
      )}
      <LoadMoreButton query={wallet} size="xs">
        {m.walletLoadMore()}
      </LoadMoreButton>
    </>
  );
}
