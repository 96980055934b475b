-- Rate-limit windows live for a minute: they need no WAL. An unlogged table skips the flush each
-- write would otherwise wait for, and is emptied after a crash, which only forgives one window.
ALTER TABLE "rate_limits" SET UNLOGGED;
