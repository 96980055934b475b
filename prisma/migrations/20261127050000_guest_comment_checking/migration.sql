-- A guest comment is stored as `checking` before its safety check runs, so no lock is held
-- through the check; its network is kept for the sliding per-network minute allowance.
ALTER TABLE "showcase_guest_comments" ADD COLUMN "network" TEXT;

-- CreateIndex
CREATE INDEX "showcase_guest_comments_session_id_created_at_idx" ON "showcase_guest_comments"("session_id", "created_at");

-- CreateIndex
CREATE INDEX "showcase_guest_comments_network_created_at_idx" ON "showcase_guest_comments"("network", "created_at");
