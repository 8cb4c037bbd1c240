// Who may change a research record: the person who owns it (the user who created it, or the owner of the bot that
// did — any of that person's credentials acts for them), or an admin. Records from before ownership existed have no
// owner, so only admins may change them.
export interface ResearchChanger {
  personId: string;
  admin: boolean;
}

export function mayChangeResearch(record: { ownerId: string | null }, caller: ResearchChanger): boolean {
  return caller.admin || (record.ownerId !== null && record.ownerId === caller.personId);
}
