import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export type MaterialStatus = 'pending_upload' | 'processing' | 'active' | 'error' | 'deleted';

export interface Reference {
  title: string;
  url: string;
}

export interface MaterialContent {
  text?: string;
  url?: string;
  s3Key?: string;
  filename?: string;
  fileSize?: number;
  mimeType?: string;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: CreatedAt;
}

export interface GroupsTable {
  id: string;
  organization_id: string;
  name: string;
  plan_valid_from: Timestamp | null;
  plan_valid_until: Timestamp | null;
  created_at: CreatedAt;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  group_id: string | null;
  prefix: string;
  key_hash: Buffer;
  created_at: CreatedAt;
  revoked_at: Timestamp | null;
}

export interface MaterialsTable {
  id: string;
  organization_id: string;
  folder_id: string | null;
  name: string;
  content_type: string;
  status: MaterialStatus;
  content: Json<MaterialContent>;
  metadata: Json<Record<string, unknown>>;
  references: Json<Reference[]>;
  extract_images: Generated<boolean>;
  storage_bytes: Generated<number>;
  derived_bytes: Generated<number>;
  processing_started_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface MaterialObjectsTable {
  material_id: string;
  key: string;
  kind: 'original' | 'derived';
  bytes: number;
  created_at: CreatedAt;
}

export interface IdempotencyKeysTable {
  organization_id: string;
  key: string;
  fingerprint: string;
  status_code: number | null;
  response_headers: Json<Record<string, string>> | null;
  response_body: Json<unknown> | null;
  created_at: CreatedAt;
  completed_at: Timestamp | null;
}

export const USAGE_EVENT_TYPES = [
  'live_session_created',
  'live_chat_message_sent',
  'test_created',
  'test_question_created',
  'test_question_answered',
  'test_chat_question',
  'engagement',
] as const;
export type UsageEventType = (typeof USAGE_EVENT_TYPES)[number];

export interface StudentsTable {
  id: Generated<number>;
  organization_id: string;
  user_id: string;
  name: string;
  name_as_of: ColumnType<Date, Date | string | undefined, Date | string>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface GroupMembersTable {
  organization_id: string;
  group_id: string;
  student_id: number;
  created_at: CreatedAt;
}

export interface UsageEventsTable {
  organization_id: string;
  event_id: string;
  group_id: string;
  student_id: number;
  type: UsageEventType;
  /** Set only for `test_question_answered`. */
  correct: boolean | null;
  occurred_at: Timestamp;
  value: number | null;
  properties: Json<Record<string, unknown>> | null;
  received_at: CreatedAt;
}

export interface UsageDailyTable {
  organization_id: string;
  group_id: string;
  student_id: number;
  /** The UTC day, as `YYYY-MM-DD`. */
  day: ColumnType<string, string, never>;
  sessions_made: number;
  chat_messages: number;
  tests_made: number;
  questions_made: number;
  answered_correctly: number;
  answered_incorrectly: number;
  chat_questions: number;
  engagement_events: number;
  engaged_ms: number;
}

export interface Database {
  organizations: OrganizationsTable;
  groups: GroupsTable;
  api_keys: ApiKeysTable;
  materials: MaterialsTable;
  material_objects: MaterialObjectsTable;
  idempotency_keys: IdempotencyKeysTable;
  students: StudentsTable;
  group_members: GroupMembersTable;
  usage_events: UsageEventsTable;
  usage_daily: UsageDailyTable;
}

export type Material = Selectable<MaterialsTable>;
export type NewMaterial = Insertable<MaterialsTable>;
export type MaterialUpdate = Updateable<MaterialsTable>;
export type Group = Selectable<GroupsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
