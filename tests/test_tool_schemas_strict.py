"""Every tool schema the server lists (input and output) compiles under Ajv in strict mode, the validator Node-based
agents use (qwen-code's stderr showed its validator rejecting `maxLength` beside `anyOf` without `type: string`).
Ajv is installed once, pinned, into $SHOPBENCH_HOME/tools with npm, as the installed agents are."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from mcp import Client

from benchmarks.home import shopbench_home
from evaluators.players.installed.install import install
from mcp_server.server import build_server

AJV = "ajv@8.20.0"
STRICT = """
const drafts = {"http://json-schema.org/draft-07/schema#": require("ajv").default};
const schemas = JSON.parse(require("fs").readFileSync(0, "utf8"));
const problems = [];
for (const [name, schema] of Object.entries(schemas)) {
  const Ajv = drafts[schema.$schema] || require("ajv/dist/2020").default;  // the draft the schema names; else 2020-12
  const ajv = new Ajv({strict: true, allErrors: true});
  try { ajv.compile(schema); } catch (error) { problems.push(`${name}: ${error.message}`); }
}
console.log(JSON.stringify(problems));
"""


async def _listed_schemas(tmp_path: Path) -> dict[str, dict]:
    async with Client(build_server(None, [], tmp_path / "runs"), mode="legacy") as client:
        tools = (await client.list_tools()).tools
    schemas = {f"{tool.name} input": tool.input_schema for tool in tools}
    schemas |= {f"{tool.name} output": tool.output_schema for tool in tools if tool.output_schema}
    return schemas


async def test_every_listed_tool_schema_compiles_under_ajv_strict_mode(tmp_path: Path) -> None:
    folder = shopbench_home() / "tools" / AJV
    install(AJV, folder)
    schemas = await _listed_schemas(tmp_path)
    assert {"find_product input", "start_task input", "find_product output"} <= set(schemas)
    done = subprocess.run(["node", "-e", STRICT], input=json.dumps(schemas), capture_output=True, text=True,
                          timeout=120, env={**os.environ, "NODE_PATH": str(folder / "node_modules")}, check=False)
    assert done.returncode == 0, done.stderr
    problems = json.loads(done.stdout)
    assert problems == [], "\n".join(problems)
