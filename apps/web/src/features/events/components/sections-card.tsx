import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
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
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { EVENTS_TEXT } from '../../../lib/ui-text';
import { afterEventChange, deleteSection } from '../api';
import { useConfirmedChange } from './affected-bookings-dialog';
import { SectionDialog } from './section-dialog';
import { SlotGrid } from './slot-grid';

// Shown under a section with no slots: the section exists, so say what it lacks (issue 36). Kept here,
// not in lib/ui-text (in every page's first chunk), as only this card says them.
export const NO_SLOTS_TEXT = {
  teachers: 'No teachers in this section yet: edit it to choose the teachers taking part.',
  times: 'No slots in this section: check its times and the slot length.',
};

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
              <SlotGrid
                groups={event.slots.filter((group) => group.sectionId === section.id)}
                timeZone={event.timeZone}
                label={`${EVENTS_TEXT.slotGrid}: ${section.label}`}
                emptyText={
                  withTeachers && section.teachers.length === 0 ? NO_SLOTS_TEXT.teachers : NO_SLOTS_TEXT.times
                }
              />
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
