// extension.js: the VS Code client of the cudalint language server: starts
// `cudalint lsp` (settings cudalint.path and cudalint.args) for CUDA files and
// restarts it when those settings change.  Diagnostics and quick fixes come
// from the server; nothing here knows about rules.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client = null;

// ${workspaceFolder} and ~ in settings, as users expect from other tools.
function expand(value) {
  const folders = vscode.workspace.workspaceFolders;
  const root = folders && folders.length ? folders[0].uri.fsPath : '';
  let v = String(value).replace(/\$\{workspaceFolder\}/g, root);
  if (v === '~' || v.startsWith('~/')) v = require('os').homedir() + v.slice(1);
  return v;
}

function serverOptions() {
  const cfg = vscode.workspace.getConfiguration('cudalint');
  const command = expand(cfg.get('path') || 'cudalint');
  const args = ['lsp', ...(cfg.get('args') || []).map(expand)];
  const folders = vscode.workspace.workspaceFolders;
  // The server looks for compile_commands.json in the workspace root (and
  // root/build) when -p is not given; run it there too.
  const options = folders && folders.length ? { cwd: folders[0].uri.fsPath } : {};
  return { command, args, options };
}

async function start() {
  const server = serverOptions();
  client = new LanguageClient('cudalint', 'cudalint', server, {
    documentSelector: [
      { scheme: 'file', language: 'cuda-cpp' },
      { scheme: 'file', pattern: '**/*.{cu,cuh}' },
    ],
    outputChannelName: 'cudalint',
  });
  try {
    await client.start();
  } catch (err) {
    client = null;
    vscode.window.showErrorMessage(
      `cudalint: could not start "${server.command} ${server.args.join(' ')}": ${err.message}. ` +
        'Set cudalint.path to the cudalint executable.');
  }
}

async function stop() {
  if (!client) return;
  const c = client;
  client = null;
  await c.stop();
}

async function restart() {
  await stop();
  await start();
}

function activate(context) {
  context.subscriptions.push(vscode.commands.registerCommand('cudalint.restart', restart));
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('cudalint.path') || e.affectsConfiguration('cudalint.args')) restart();
    }));
  return start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
