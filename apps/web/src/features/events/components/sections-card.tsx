import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { EVENT_GROUPS } from '@parley/domain/event-groups';
import type { EventDetail, SectionDetail } from '@parley/domain/events';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Pager } from '../../../components/pager';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { EVENTS_TEXT, LIST_TEXT } from '../../../lib/ui-text';
import { afterEventChange, deleteSection, eventSlotsQuery } from '../api';
import { useConfirmedChange } from './affected-bookings-dialog';
import { ListSearch } from './list-search';
import { SectionDialog } from './section-dialog';
import { SlotGrid } from './slot-grid';

// Shown under a section with no slots: the section exists, so say what it lacks (issue 36). Kept here,
// not in lib/ui-text (in every page's first chunk), as only this card says them.
export const NO_SLOTS_TEXT = {
  teachers: 'No teachers in this section yet: edit it to choose the teachers taking part.',
  times: 'No slots in this section: check its times and the slot length.',
};

/** Teachers' columns of a section's grid shown at once: a page of the grid (decision 035). */
export const GRID_TEACHERS_PER_PAGE = 8;

const GRID_TEXT = {
  findTeacher: 'Find a teacher',
  failed: 'Could not load the slots. Try again in a moment.',
};

/**
 * One section's slot grid, its columns asked for a page at a time: an evening of 600 teachers is 20,000
 * slots, and the page shows eight teachers (found by name among the section's).
 */
function SectionGrid(props: { event: EventDetail; section: SectionDetail; byTeacher: boolean }) {
  const { event, section, byTeacher } = props;
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const found = useMemo(() => {
    const typed = query.trim().toLowerCase();
    return section.teachers.filter((teacher) => teacher.name.toLowerCase().includes(typed));
  }, [section.teachers, query]);
  const shown = found.slice((page - 1) * GRID_TEACHERS_PER_PAGE, page * GRID_TEACHERS_PER_PAGE);
  const columns = useQuery({
    ...eventSlotsQuery(event.id, {
      sectionId: section.id,
      ...(byTeacher && { teacherIds: shown.map((teacher) => teacher.teacherId) }),
    }),
    enabled: section.slotCount > 0 && (!byTeacher || shown.length > 0),
    placeholderData: (previous) => previous,
  });
  const label = `${EVENTS_TEXT.slotGrid}: ${section.label}`;
  const emptyText = byTeacher && section.teachers.length === 0 ? NO_SLOTS_TEXT.teachers : NO_SLOTS_TEXT.times;
  return (
    <>
      {byTeacher && section.teachers.length > GRID_TEACHERS_PER_PAGE ? (
        <ListSearch
          label={GRID_TEXT.findTeacher}
          value={query}
          onSearch={(value) => {
            setQuery(value);
            setPage(1);
          }}
        />
      ) : null}
      {columns.isError ? (
        <Alert severity="error" sx={{ mb: 1 }}>
          {GRID_TEXT.failed}
        </Alert>
      ) : null}
      {section.slotCount === 0 ? (
        <SlotGrid groups={[]} timeZone={event.timeZone} label={label} emptyText={emptyText} />
      ) : byTeacher && found.length === 0 ? (
        <Typography color="text.secondary">{LIST_TEXT.noMatches}</Typography>
      ) : columns.data ? (
        <SlotGrid groups={columns.data.items} timeZone={event.timeZone} label={label} emptyText={emptyText} />
      ) : null}
      {byTeacher && found.length > GRID_TEACHERS_PER_PAGE ? (
        <Pager page={page} pageSize={GRID_TEACHERS_PER_PAGE} total={found.length} onPage={setPage} />
      ) : null}
    </>
  );
}

/** The sections of the event, each with its slot grid; add, edit and delete. */
export function SectionsCard({ event }: { event: EventDetail }) {
  const showSnackbar = useSnackbar();
  const [editing, setEditing] = useState<{ section: SectionDetail | null } | null>(null);
  const [deleting, setDeleting] = useState<SectionDetail | null>(null);
  const [pending, setPending] = useState(false);
  const { attempt, dialog } = useConfirmedChange();
  // A parent-teacher section makes slots per teacher: without teachers it has none.
  const withTeachers = event.eventTypeGroupInt === EVENT_GROUPS.parentTeacher;

  const remove = async (section: SectionDetail) => {
    setPending(true);
    setDeleting(null);
    await attempt(async (confirm) => {
      const result = await deleteSection(event.id, section.id, confirm ? { confirm } : {});
      showSnackbar(result.message, 'success');
      await afterEventChange(event.id);
      return result;
    }, EVENTS_TEXT.sectionFailed);
    setPending(false);
  };

  return (
    <SectionCard
      title={EVENTS_TEXT.sections}
      action={
        <Button
          variant="contained"
          size="small"
          startIcon={<AddIcon />}
          onClick={() => setEditing({ section: null })}
        >
          {EVENTS_TEXT.addSection}
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {EVENTS_TEXT.slotGridHelp(event.timeZone)}
      </Typography>
      {event.sections.length === 0 ? (
        <Typography color="text.secondary">{EVENTS_TEXT.noSectionsHelp}</Typography>
      ) : (
        <Stack spacing={3} divider={<Divider flexItem />}>
          {event.sections.map((section) => (
            <Box key={section.id} component="section" aria-label={section.label}>
              <Stack
                direction="row"
                spacing={1}
                sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', mb: 1 }}
              >
                <Box>
                  <Typography sx={{ fontWeight: 600 }}>{section.label}</Typography>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                    {section.location ? (
                      <Typography variant="body2" color="text.secondary">
                        {section.location}
                      </Typography>
                    ) : null}
                    <Chip
                      size="small"
                      label={EVENTS_TEXT.sectionSlots(section.slotCount, section.bookedCount)}
                    />
                    {section.teachers.length > 0 ? (
                      <Chip
                        size="small"
                        variant="outlined"
                        label={`${section.teachers.length} ${EVENTS_TEXT.teachers.toLowerCase()}`}
                      />
                    ) : null}
                  </Stack>
                </Box>
                <Stack direction="row">
                  <Tooltip title={EVENTS_TEXT.editSection}>
                    <IconButton
                      aria-label={`${EVENTS_TEXT.editSection} ${section.label}`}
                      onClick={() => setEditing({ section })}
                    >
                      <EditIcon />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={EVENTS_TEXT.deleteSection}>
                    <IconButton
                      aria-label={`${EVENTS_TEXT.deleteSection} ${section.label}`}
                      onClick={() => setDeleting(section)}
                      disabled={pending}
                    >
                      <DeleteOutlineIcon />
                    </IconButton>
                  </Tooltip>
                </Stack>
              </Stack>
              <SectionGrid event={event} section={section} byTeacher={withTeachers} />
            </Box>
          ))}
        </Stack>
      )}
      <SectionDialog
        event={event}
        section={editing?.section ?? null}
        open={editing !== null}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={EVENTS_TEXT.deleteSectionTitle}
        message={EVENTS_TEXT.deleteSectionText}
        confirmLabel={EVENTS_TEXT.deleteSection}
        destructive
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
      {dialog}
    </SectionCard>
  );
}
