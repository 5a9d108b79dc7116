import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { EventDetail } from '@parley/domain/events';
import { useEffect, useState } from 'react';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { TextField } from '../../../components/text-field';
import { serverMessage } from '../../../lib/api-client';
import { EVENTS_TEXT } from '../../../lib/ui-text';
import { afterEventChange, type PersonRef, removeScanner, searchScanners, setScanners } from '../api';

/** Ticketed events (groups 2, 3): who may scan tickets at the door. */
export function ScannersCard({ event }: { event: EventDetail }) {
  const showSnackbar = useSnackbar();
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<PersonRef[]>([]);

  useEffect(() => {
    const q = input.trim();
    if (q.length < 2) {
      setOptions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchScanners(q, controller.signal)
        .then((result) => setOptions(result.items))
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [input]);

  const run = async (change: () => Promise<{ message: string }>) => {
    try {
      const result = await change();
      showSnackbar(result.message, 'success');
      await afterEventChange(event.id);
    } catch (error) {
      showSnackbar(serverMessage(error, EVENTS_TEXT.saveFailed), 'error');
    }
  };

  const current = new Set(event.canScanUserIds);
  return (
    <SectionCard title={EVENTS_TEXT.scanners}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {EVENTS_TEXT.scannersHelp}
      </Typography>
      <Autocomplete<PersonRef>
        options={options.filter((option) => !current.has(option.id))}
        filterOptions={(all) => all}
        getOptionLabel={(option) => `${option.name} (${option.email})`}
        inputValue={input}
        onInputChange={(_event, value) => setInput(value)}
        value={null}
        onChange={(_event, person) => {
          if (!person) return;
          setInput('');
          void run(() => setScanners(event.id, [...event.canScanUserIds, person.id]));
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            size="small"
            label={EVENTS_TEXT.addScanner}
            placeholder={EVENTS_TEXT.searchPeople}
          />
        )}
        sx={{ maxWidth: 420, mb: 2 }}
      />
      {event.scanners.length === 0 ? (
        <Typography color="text.secondary">{EVENTS_TEXT.noScanners}</Typography>
      ) : (
        <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
          {event.scanners.map((person) => (
            <Chip
              key={person.id}
              label={person.name}
              title={person.email}
              onDelete={() => void run(() => removeScanner(event.id, person.id))}
            />
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}
