"""`--agent command:TEMPLATE`: any other agent, started from a command line with placeholders.

The template is split like a shell line (no shell runs it; write `sh -c '…'` for one) and each word has its
placeholders filled: {prompt}, {prompt_file} (the prompt in a file, also its stdin), {mcp_config} (a JSON file in
the common `mcpServers` shape naming shopbench's endpoint and its credential), {mcp_url}, {model}, {base_url} (the
model bridge, Anthropic style), {openai_base_url} (…/v1) and {workdir}. The same values are in its environment:
SHOPBENCH_MCP_URL, ANTHROPIC_BASE_URL, OPENAI_BASE_URL, the bridge's key as ANTHROPIC_API_KEY and OPENAI_API_KEY,
and the MCP address's credential as SHOPBENCH_MCP_KEY (sent as `Authorization: Bearer`). Every user of the machine
reads a command line: {prompt} and the addresses put the task and its endpoints there (the credentials never go
there), so prefer {prompt_file}, {mcp_config} and the environment. Which tools such
an agent offers its model is its own affair: the bridge shows the model shopbench's tools only.

The command's executable (its first word) is looked up once, on the PATH the agent gets, when the adapter is made:
a missing one is one error before any episode, not a failure per episode.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

from evaluators.players.installed.adapter import (
    AgentAdapter,
    AgentSetupError,
    EpisodeSetup,
    Launch,
    agent_path,
    base_env,
    mcp_servers,
    prompt_file,
    write_json,
)

PREFIX = "command:"
PLACEHOLDERS = ("prompt", "prompt_file", "mcp_config", "mcp_url", "model", "base_url", "openai_base_url", "workdir")
PLACEHOLDER = re.compile(r"\{([A-Za-z_]+)\}")


class CommandAgent(AgentAdapter):
    name = "command"

    def __init__(self, template: str) -> None:
        try:
            self.words = shlex.split(template)
        except ValueError as error:
            raise AgentSetupError(f"--agent {PREFIX}{template}: cannot be split like a shell line ({error})") from None
        unknown = sorted({name for word in self.words for name in PLACEHOLDER.findall(word)} - set(PLACEHOLDERS))
        if not self.words or unknown:
            what = f"unknown placeholder(s) {', '.join('{' + name + '}' for name in unknown)}" if unknown else "empty"
            raise AgentSetupError(f"--agent {PREFIX}{template}: {what}; placeholders: "
                                  f"{', '.join('{' + name + '}' for name in PLACEHOLDERS)}")
        self.template = template
        self.program = resolve_command(self.words[0], template)
        """The first word, found on the agent's PATH (a word with a placeholder is taken as it is)."""

    def launch(self, executable: Path, setup: EpisodeSetup) -> Launch:
        prompt = prompt_file(setup)
        values = {"prompt": setup.prompt, "prompt_file": str(prompt), "model": setup.model,
                  "mcp_config": str(write_json(setup.home / "mcp.json", mcp_servers(setup))),
                  "mcp_url": setup.mcp_url, "base_url": setup.base_url, "openai_base_url": setup.openai_base_url,
                  "workdir": str(setup.workdir)}
        argv = [PLACEHOLDER.sub(lambda match: values[match[1]], word) for word in [self.program, *self.words[1:]]]
        env = base_env(setup) | {"SHOPBENCH_MCP_URL": setup.mcp_url, "ANTHROPIC_BASE_URL": setup.base_url,
                                 "OPENAI_BASE_URL": setup.openai_base_url, "ANTHROPIC_API_KEY": setup.api_key,
                                 "OPENAI_API_KEY": setup.api_key, "SHOPBENCH_MCP_KEY": setup.mcp_key}
        return Launch(argv, env, stdin=prompt)

    def flags(self) -> list[str]:
        return list(self.words)

    def version(self, executable: Path) -> str:
        """A command has no version of its own: its template's hash tells runs of different commands apart."""
        return "template-" + hashlib.sha256(self.template.encode()).hexdigest()[:12]

    def agent_details(self, executable: Path | None) -> dict[str, Any]:
        return {"template": self.template}


def resolve_command(word: str, template: str) -> str:
    """The executable `word` names, as an absolute path (a name is looked up on the agent's PATH); an error saying
    which word when there is none."""
    if PLACEHOLDER.search(word):
        return word
    found = shutil.which(word, path=agent_path()) if os.sep not in word else word
    if found is None or not (os.path.isfile(found) and os.access(found, os.X_OK)):
        where = "not found on PATH" if os.sep not in word else "not an executable file"
        raise AgentSetupError(f"--agent {PREFIX}{template}: {word!r}: {where}")
    return os.path.abspath(found)
