import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { errorMessage } from '../../../shared/http';
import { notifyError, notifySuccess } from '../../../shared/notify';
import { readToken } from '../../../shared/storage';
import { ADMIN_DELETION_SAYS, deleteUserAccount } from '../api';

/** The Users section's "Delete account" (admins only; the server checks): asks first, says what it does. */
export function AdminDeleteUser({
  userId,
  email,
  onDeleted,
}: {
  userId: string;
  email: string;
  onDeleted: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      const answer = await deleteUserAccount(userId, readToken());
      notifySuccess(answer.message);
      setOpen(false);
      onDeleted();
    } catch (err) {
      notifyError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button color="error" variant="outlined" onClick={() => setOpen(true)}>
        Delete account
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="delete-user-title">
        <DialogTitle id="delete-user-title">Delete the account of {email}?</DialogTitle>
        <DialogContent>
          <DialogContentText>{ADMIN_DELETION_SAYS}</DialogContentText>
          <DialogContentText sx={{ mt: 2 }}>This cannot be undone.</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button color="error" variant="contained" disabled={busy} onClick={() => void confirm()}>
            Delete account
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
