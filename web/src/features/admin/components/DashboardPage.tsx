import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '../../../app/hooks';
import { topicsNeeded } from '../topics';
import { AccountIcon, BellIcon, MenuIcon, SearchIcon } from './icons';
import { CheckInSection } from './sections/CheckInSection';
import { EventLogsSection } from './sections/EventLogsSection';
import { PromotionsSection } from './sections/PromotionsSection';
import { ReportSection } from './sections/ReportSection';
import { SiteSettingsSection } from './sections/SiteSettingsSection';
import { TemplatesSection } from './sections/TemplatesSection';
import { TopicsSection } from './sections/TopicsSection';
import { TransactionsSection } from './sections/TransactionsSection';
import { UsersSection } from './sections/UsersSection';

/** admin.md §2: the side menu's sections, in order. The URL keeps the open one (?section=), so reloads stay put. */
export const SECTIONS: Array<{ key: string; label: string; render: () => ReactNode }> = [
  { key: 'users', label: 'Users', render: () => <UsersSection /> },
  { key: 'topics', label: 'Topics', render: () => <TopicsSection /> },
  { key: 'templates', label: 'Templates', render: () => <TemplatesSection /> },
  { key: 'promotions', label: 'Promotions', render: () => <PromotionsSection /> },
  { key: 'transactions', label: 'Transactions', render: () => <TransactionsSection /> },
  { key: 'sitesettings', label: 'SiteSettings', render: () => <SiteSettingsSection /> },
  { key: 'checkin', label: 'CheckIn', render: () => <CheckInSection /> },
  { key: 'report', label: 'Report', render: () => <ReportSection /> },
  { key: 'eventlogs', label: 'Event Logs', render: () => <EventLogsSection /> },
];

const DRAWER_WIDTH = 220;

export function DashboardPage() {
  const dispatch = useAppDispatch();
  const [params, setParams] = useSearchParams();
  const wide = useMediaQuery('(min-width:900px)');
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [profileAnchor, setProfileAnchor] = useState<HTMLElement | null>(null);
  const current =
    SECTIONS.find((s) => s.key === params.get('section')) ?? (SECTIONS[0] as (typeof SECTIONS)[number]);

  useEffect(() => {
    dispatch(topicsNeeded());
  }, [dispatch]);

  const menu = (
    <nav aria-label="Admin sections">
      <List>
        {SECTIONS.map((section) => (
          <ListItem key={section.key} disablePadding>
            <ListItemButton
              selected={section.key === current.key}
              aria-current={section.key === current.key ? 'page' : undefined}
              onClick={() => {
                setParams({ section: section.key });
                setDrawerOpen(false);
              }}
            >
              <ListItemText primary={section.label} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </nav>
  );

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'grey.50' }}>
      <AppBar position="fixed" sx={wide ? { zIndex: (t) => t.zIndex.drawer + 1 } : undefined}>
        <Toolbar sx={{ gap: 1 }}>
          {!wide && (
            <IconButton
              color="inherit"
              edge="start"
              aria-label="Open menu"
              onClick={() => setDrawerOpen(true)}
            >
              <MenuIcon />
            </IconButton>
          )}
          <Typography
            variant="h6"
            component="h1"
            noWrap
            sx={
              wide
                ? { flexShrink: 0, color: 'inherit' }
                : { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }
            }
          >
            Dashboard
          </Typography>
          {/* admin.md §2: the search box, notification icon and profile menu have no behaviour. */}
          <Box
            sx={{
              display: 'flex',
              alignItems: 'center',
              bgcolor: 'rgba(0,0,0,0.25)',
              borderRadius: 1,
              px: 1,
              mx: 1,
              flex: 1,
              maxWidth: 320,
              minWidth: 0,
            }}
          >
            <SearchIcon fontSize="small" />
            <InputBase
              placeholder="Search…"
              inputProps={{ 'aria-label': 'Search' }}
              sx={{ color: 'inherit', ml: 1 }}
            />
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          <IconButton color="inherit" aria-label="Notifications">
            <BellIcon />
          </IconButton>
          <IconButton
            color="inherit"
            aria-label="Profile menu"
            aria-haspopup="menu"
            onClick={(e) => setProfileAnchor(e.currentTarget)}
          >
            <AccountIcon />
          </IconButton>
          <Menu anchorEl={profileAnchor} open={Boolean(profileAnchor)} onClose={() => setProfileAnchor(null)}>
            <MenuItem onClick={() => setProfileAnchor(null)}>Edit Profile</MenuItem>
            <MenuItem onClick={() => setProfileAnchor(null)}>Account Settings</MenuItem>
            <MenuItem onClick={() => setProfileAnchor(null)}>Sign Out</MenuItem>
          </Menu>
        </Toolbar>
      </AppBar>
      {wide ? (
        <Drawer
          variant="permanent"
          sx={{ width: DRAWER_WIDTH, flexShrink: 0, '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
        >
          <Toolbar />
          {menu}
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH } }}
        >
          {menu}
        </Drawer>
      )}
      <Box component="main" id="main" sx={{ flexGrow: 1, minWidth: 0, p: { xs: 1.5, md: 3 } }}>
        <Toolbar />
        <Typography variant="h5" component="h2" sx={{ mb: 2 }}>
          {current.label}
        </Typography>
        {current.render()}
      </Box>
    </Box>
  );
}
