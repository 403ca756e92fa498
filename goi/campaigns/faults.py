"""What can go wrong around a campaign, each with its own outcome (docs/CAMPAIGNS.md, "Faults"):
the checkpoint file and the cluster. Each error names the file or the address, and its exit
code (goi/cli/exitcodes.py, by the name in `exit`), so that the command line reports it as
one line, never as a usage error or a traceback."""

from __future__ import annotations

from goi.semantics.errors import GoiError


class CampaignFault(GoiError):
    """A campaign could not start or go on; `exit` names its code in goi.cli.exitcodes."""

    kind = "campaign"
    exit = "INTERNAL"


class CheckpointExists(CampaignFault):
    """A fresh campaign was given a checkpoint path where a file already is: nothing the user
    has is overwritten (give --resume to continue it, or another name)."""

    kind = "exists"
    exit = "CANT_CREATE"


class CheckpointRefused(CampaignFault):
    """The file is not this campaign's checkpoint: another campaign's, not a checkpoint at
    all, or one whose head is damaged."""

    kind = "checkpoint"
    exit = "DATA"


class CheckpointIOError(CampaignFault):
    """The checkpoint cannot be read or written: an OS error, a device, a FIFO, a file beyond
    the size a checkpoint can have."""

    kind = "io"
    exit = "IO"


class ClusterError(CampaignFault):
    """The cluster cannot be used or was lost: an unsupported or unreachable address, a
    scheduler that went away, no worker within the wait. The checkpoint keeps every shard
    finished before it, for --resume."""

    kind = "cluster"
    exit = "UNAVAILABLE"


class CampaignTooLarge(CampaignFault):
    """Set-up refused before any work: more programs (or shards) than the campaign may have,
    or a size whose programs cannot even be counted."""

    kind = "budget"
    exit = "BUDGET"
