import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

/** Reads an uploaded file as a data URL (admin.md §3: images are sent as data URLs). */
export const readAsDataUrl = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/** An image upload button (any image type) with a preview of the current image. */
export function ImageUpload({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (dataUrl: string) => void;
}) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
      <Button variant="outlined" component="label">
        {label}
        <input
          hidden
          type="file"
          accept="image/*"
          aria-label={label}
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (file) onChange(await readAsDataUrl(file));
          }}
        />
      </Button>
      {value ? (
        <Box
          component="img"
          src={value}
          alt="Selected image"
          sx={{ maxHeight: 64, maxWidth: 120, borderRadius: 1 }}
        />
      ) : (
        <Typography variant="body2" color="text.secondary">
          No image
        </Typography>
      )}
    </Stack>
  );
}
