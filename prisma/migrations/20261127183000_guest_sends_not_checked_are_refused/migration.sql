-- Guest comments whose check could not run (checker unavailable, or the day's reviews used up) are
-- now refused with 503 and never stored. Those stored before were never shown: they go, so their
-- lookup answers "not received; send it again with the same request_id", as a refused send does.
DELETE FROM "showcase_guest_comments" WHERE "state" IN ('unavailable', 'capacity');
