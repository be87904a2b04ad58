/** Who a request acts for: the organization (and optionally the group) of its API key. */
export interface Principal {
  keyId: string;
  organizationId: string;
  groupId: string | null;
  planValidFrom: Date | null;
  planValidUntil: Date | null;
}
