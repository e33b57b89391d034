import { useLocation, useRoute } from 'preact-iso';
import { api, query, type Page } from '../api';
import { formatTime, formatValue } from '../format';
import { Fields, Filters, Id, PageTitle, Pager, Resource, Status, Table, useLoad, type Column } from '../ui';

type Row = Record<string, unknown> & { created_at?: string; status?: string };

interface ResourceKind {
  title: string;
  collection: string;
  api: string;
  idField: string;
  nameField: string;
  columns: Column<Row>[];
  /** Filters the API offers for the list. */
  filters?: { name: string; label: string; options?: readonly string[] }[];
}

const text = (field: string) => (row: Row) => formatValue(row[field]);

/** The resources whose pages are a list and a page of fields: voice clones, rooms, phone numbers. */
const KINDS: Record<'voices' | 'rooms' | 'numbers', ResourceKind> = {
  voices: {
    title: 'Voice clones',
    collection: 'voice_clones',
    api: '/v1/voice_clones',
    idField: 'voice_id',
    nameField: 'name',
    columns: [
      { label: 'Status', cell: (r) => <Status value={r.status} /> },
      { label: 'Created', cell: (r) => formatTime(r.created_at) },
    ],
  },
  rooms: {
    title: 'Rooms',
    collection: 'rooms',
    api: '/v1/rooms',
    idField: 'room_id',
    nameField: 'room_id',
    filters: [
      {
        name: 'status',
        label: 'Status',
        options: ['created', 'landing_viewed', 'joined', 'completed', 'expired', 'failed'],
      },
    ],
    columns: [
      { label: 'Status', cell: (r) => <Status value={r.status} /> },
      { label: 'Your reference', cell: text('client_reference_id') },
      { label: 'Expires', cell: (r) => formatTime(r.expires_at) },
      { label: 'Created', cell: (r) => formatTime(r.created_at) },
    ],
  },
  numbers: {
    title: 'Phone numbers',
    collection: 'phone_numbers',
    api: '/v1/phone_numbers',
    idField: 'phone_number_id',
    nameField: 'phone_number',
    columns: [
      { label: 'Status', cell: (r) => <Status value={r.status} /> },
      { label: 'Voice', cell: (r) => (typeof r.voice_id === 'string' ? <Id value={r.voice_id} /> : '—') },
      { label: 'Created', cell: (r) => formatTime(r.created_at) },
    ],
  },
};

function ListOf({ kind }: { kind: ResourceKind }) {
  const { query: q } = useLocation();
  const filters = kind.filters ?? [];
  const path = `${kind.api}${query({
    ...Object.fromEntries(filters.map((f) => [f.name, q[f.name]])),
    starting_after: q.starting_after,
  })}`;
  const list = useLoad(() => api<Page<Row>>('GET', path), path, 5000);
  const link: Column<Row> = {
    label: kind.nameField === kind.idField ? 'Id' : 'Name',
    cell: (r) =>
      kind.nameField === kind.idField ? (
        <Id value={String(r[kind.idField])} href={`/dashboard/${kind.collection}/${String(r[kind.idField])}`} />
      ) : (
        <a href={`/dashboard/${kind.collection}/${String(r[kind.idField])}`}>{formatValue(r[kind.nameField])}</a>
      ),
  };
  return (
    <section aria-labelledby="page-title">
      <PageTitle>{kind.title}</PageTitle>
      {filters.length > 0 ? <Filters fields={filters} /> : null}
      <Resource loaded={list}>
        {(page) => (
          <>
            <Table
              caption={kind.title}
              rows={page.data}
              rowKey={(r) => String(r[kind.idField])}
              columns={[link, ...kind.columns]}
            />
            <Pager
              hasMore={page.has_more === true}
              lastId={page.data[page.data.length - 1]?.[kind.idField] as string}
            />
          </>
        )}
      </Resource>
    </section>
  );
}

function OneOf({ kind, singular }: { kind: ResourceKind; singular: string }) {
  const { params } = useRoute();
  const id = params.id ?? '';
  const one = useLoad(() => api<Row>('GET', `${kind.api}/${encodeURIComponent(id)}`), id, 5000);
  return (
    <Resource loaded={one}>
      {(r) => (
        <section aria-labelledby="page-title">
          <PageTitle>
            {singular} {formatValue(r[kind.nameField])}
          </PageTitle>
          <Fields data={r} omit={[kind.idField === kind.nameField ? kind.idField : '']} />
        </section>
      )}
    </Resource>
  );
}

export const VoicesPage = () => <ListOf kind={KINDS.voices} />;
export const VoicePage = () => <OneOf kind={KINDS.voices} singular="Voice clone" />;
export const RoomsPage = () => <ListOf kind={KINDS.rooms} />;
export const RoomPage = () => <OneOf kind={KINDS.rooms} singular="Room" />;
export const NumbersPage = () => <ListOf kind={KINDS.numbers} />;
export const NumberPage = () => <OneOf kind={KINDS.numbers} singular="Phone number" />;
