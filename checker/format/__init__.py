"""The scenario format: loading YAML safely with positions, the scenario schema built from the games'
vocabularies, and a scenario file read and validated into a :class:`~checker.format.scenario.Scenario`."""
