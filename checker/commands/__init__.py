"""What the commands build on runs: the readings of ambiguous rulings, diffs between revisions, the dispute
search and its random play, new scenarios, what may be done next, the gaps where disputes may hide, the
interactions traces show, and the reports the command line prints."""
