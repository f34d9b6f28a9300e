ALTER TABLE [sys_job_log] ADD [serial_claim] bigint;--> statement-breakpoint
CREATE UNIQUE INDEX [sys_job_log_serial_claim_uq] ON [sys_job_log] ([serial_claim]) WHERE serial_claim is not null;