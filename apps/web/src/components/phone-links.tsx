import { ActionIcon, Anchor } from '@mantine/core';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { m } from '@bmet/shared/paraglide/messages';
import { normalisePhone } from '@bmet/shared/search-terms';

/**
 * A phone number as stored, a link that calls it (`tel:`), and a link that opens a WhatsApp chat
 * with it: staff on a phone reach a customer or a driver in one tap. Shown as it was written; a
 * text that is no Indian number stays plain text.
 */
export function PhoneLinks({ phone }: { phone: string }) {
  const digits = normalisePhone(phone);
  if (!digits) return <>{phone}</>;
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
