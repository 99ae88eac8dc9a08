import { ActionIcon, Anchor } from '@mantine/core';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { m } from '@bmet/shared/paraglide/messages';
import { normalisePhone } from '@bmet/shared/search-terms';
import { formatPhone } from '../lib/format';

/**
 * A phone number as staff read it (+91 98765 43210), a link that calls it (`tel:`), and a link
 * that opens a WhatsApp chat with it: staff on a phone reach a customer or a driver in one tap. A
 * text that is no Indian number stays plain text, as it was written.
 */
export function PhoneLinks({ phone: stored }: { phone: string }) {
  const digits = normalisePhone(stored);
  if (!digits) return <>{stored}</>;
  const phone = formatPhone(stored);
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6, flexWrap: 'nowrap' }}>
      <Anchor href={`tel:+91${digits}`} underline="always" inherit>
        {phone}
      </Anchor>
      <ActionIcon
        component="a"
        href={`https://wa.me/91${digits}`}
        target="_blank"
        rel="noopener noreferrer"
        variant="subtle"
        color="teal"
        size="sm"
        aria-label={m.phoneWhatsApp({ phone })}
        title={m.phoneWhatsApp({ phone })}
      >
        <IconBrandWhatsapp size={16} aria-hidden />
      </ActionIcon>
    </span>
  );
}
