/* value_defs.c: the value model's table of definitions (value_internal.h):
 * what the function does to each local variable and each field of a local
 * struct (its initialiser, its writes and where they are, whether its
 * address escapes, whether it counts a loop's iterations), the function's
 * loops and if statements, gathered in one walk when the model is built;
 * and which definition reaches a read (straight-line code, an assignment
 * under uniform control, the arms of an if statement).  Computes no values:
 * value.c evaluates the definitions it finds here. */
#include "analysis/value_internal.h"
#include "base/util.h"
#include "clang/astutil.h"

#include <stdlib.h>
#include <string.h>

/* ---- the table of definitions ---- */

bool vm_is_local_var(struct value_model *vm, CXCursor decl)
{
    if (clang_getCursorKind(decl) != CXCursor_VarDecl) return false;
    if (clang_Cursor_getStorageClass(decl) == CX_SC_Static || clang_Cursor_getStorageClass(decl) == CX_SC_Extern)
        return false;
    if (ast_has_attr(decl, CXCursor_CUDASharedAttr)) return false;
    return ast_inside(vm->fn, decl);
}

struct def *vm_def_get(struct value_model *vm, CXCursor decl, const char *field, bool create)
{
    unsigned h = clang_hashCursor(decl);
    for (size_t i = 0; i < vm->n_defs; i++) {
        struct def *d = &vm->defs[i];
        if (d->decl_hash == h && clang_equalCursors(d->decl, decl) && !d->field == !field &&
            (!field || !strcmp(d->field, field)))
            return d;
    }
    if (!create) return NULL;
    if (vm->n_defs == vm->cap_defs) {
        vm->cap_defs = vm->cap_defs ? 2 * vm->cap_defs : 32;
        vm->defs = xrealloc(vm->defs, vm->cap_defs * sizeof *vm->defs);
    }
    struct def *d = &vm->defs[vm->n_defs++];
    memset(d, 0, sizeof *d);
    d->decl_hash = h;
    d->decl = decl;
    d->field = field ? xstrdup(field) : NULL;
    d->init = d->assign = d->assign_rhs = d->assign_block = clang_getNullCursor();
    d->loop = d->loop_init = d->step = d->inc = clang_getNullCursor();
    return d;
}

/* The local variable an lvalue names (and the field, for p.y), or null. */
CXCursor vm_lvalue_target(struct value_model *vm, CXCursor lhs, char **field)
{
    *field = NULL;
    CXCursor s = ast_strip(lhs);
    if (clang_getCursorKind(s) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        return vm_is_local_var(vm, d) ? d : clang_getNullCursor();
    }
    if (clang_getCursorKind(s) == CXCursor_MemberRefExpr) {
        CXCursor base = ast_strip(ast_child(s, 0));
        if (clang_getCursorKind(base) != CXCursor_DeclRefExpr) return clang_getNullCursor();
        CXCursor d = clang_getCursorReferenced(base);
        if (!vm_is_local_var(vm, d)) return clang_getNullCursor();
        *field = ast_spelling(s);
        return d;
    }
    return clang_getNullCursor();
}


/* lhs (written, or its address taken) names a parameter, or a field of
   one: the parameter may change. */
static void note_param_change(struct value_model *vm, CXCursor lhs)
{
    CXCursor s = ast_strip(lhs);
    while (clang_getCursorKind(s) == CXCursor_MemberRefExpr) s = ast_strip(ast_child(s, 0));
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr) return;
    int i = vm_param_index(vm, clang_getCursorReferenced(s));
    if (i >= 0) vm->changed_params |= 1u << i;
}

/* A write to lhs: counts for the variable, or for the one field written. */
static struct def *note_write(struct value_model *vm, CXCursor lhs)
{
    char *field;
    CXCursor d = vm_lvalue_target(vm, lhs, &field);
    if (clang_Cursor_isNull(d)) {
        free(field);
        note_param_change(vm, lhs);
        return NULL;
    }
    struct def *e = vm_def_get(vm, d, field, true);
    e->writes++;
    free(field);
    if (e->n_sites < DEF_MAX_SITES) {
        e->site_start[e->n_sites] = vm_start_of(lhs);
        e->site_end[e->n_sites] = vm_start_of(lhs);
        e->site_rhs[e->n_sites] = clang_getNullCursor();
        e->site_block[e->n_sites] = clang_getNullCursor();
        e->site_stmt[e->n_sites] = clang_getNullCursor();
        e->site_parent[e->n_sites] = clang_getNullCursor();
    }
    e->n_sites++;
    return e;
}

static void note_escape(struct value_model *vm, CXCursor expr)
{
    char *field;
    CXCursor d = vm_lvalue_target(vm, expr, &field);
    free(field);
    if (clang_Cursor_isNull(d)) {
        note_param_change(vm, expr);
        return;
    }
    vm_def_get(vm, d, NULL, true)->escaped = true;
    /* Every field of it escapes too: marked when fields are looked up. */
}

bool vm_has_real_init(CXCursor var, CXCursor *init)
{
    CXCursor kids[16];
    unsigned n = ast_children(var, kids, 16);
    if (!n || !clang_isExpression(clang_getCursorKind(kids[n - 1]))) return false;
    CXCursor e = kids[n - 1];
    /* A default construction (`int2 p;`) defines nothing. */
    if (clang_getCursorKind(e) == CXCursor_CallExpr && clang_Cursor_getNumArguments(e) == 0) {
        CXCursor r = clang_getCursorReferenced(e);
        if (clang_getCursorKind(r) == CXCursor_Constructor) return false;
    }
    *init = e;
    return true;
}

/* `for (i = a; ...; i += s)`: the counter's loop, start and step. */
static void note_counter(struct value_model *vm, CXCursor loop, CXCursor var, CXCursor start, CXCursor inc);

static enum CXChildVisitResult find_continue(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_ContinueStmt) {
        *(bool *)data = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* `T i = start; while (cond) { ...; i += step; }`: a counter whose one
   increment is the body's last statement (no continue skips it), declared
   before the loop with its start.  At the condition and in the body it is
   start + k*step, as a for loop's counter. */
static void note_while_loop(struct value_model *vm, CXCursor loop)
{
    CXCursor k[4];
    if (ast_children(loop, k, 4) != 2 || clang_getCursorKind(k[1]) != CXCursor_CompoundStmt) return;
    CXCursor stmts[256];
    unsigned n = ast_children(k[1], stmts, 256);
    if (n == 0 || n == 256) return;
    CXCursor inc = ast_strip(stmts[n - 1]);
    CXCursor target_expr;
    enum CXCursorKind ik = clang_getCursorKind(inc);
    if (ik == CXCursor_UnaryOperator && ast_unop_is_incdec(ast_unop(inc))) target_expr = ast_child(inc, 0);
    else if (ik == CXCursor_CompoundAssignOperator) target_expr = ast_child(inc, 0);
    else return;
    char *f = NULL;
    CXCursor var = vm_lvalue_target(vm, target_expr, &f);
    bool field = f != NULL;
    free(f);
    if (field || clang_Cursor_isNull(var) || clang_getCursorKind(var) != CXCursor_VarDecl) return;
    CXCursor start;
    if (!vm_has_real_init(var, &start) || vm_start_of(var) >= vm_start_of(loop)) return;
    bool has_continue = false;
    clang_visitChildren(k[1], find_continue, &has_continue);
    if (has_continue) return;
    note_counter(vm, loop, var, start, inc);
}

static void note_loop(struct value_model *vm, CXCursor loop)
{
    CXCursor k[8];
    if (ast_children(loop, k, 8) != 4) return;
    CXCursor init = k[0], inc = ast_strip(k[2]);
    CXCursor var = clang_getNullCursor(), start = clang_getNullCursor();
    if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
        CXCursor vk[4];
        if (ast_children(init, vk, 4) != 1 || !vm_is_local_var(vm, vk[0])) return;
        var = vk[0];
        if (!vm_has_real_init(var, &start)) return;
    } else if (clang_getCursorKind(ast_strip(init)) == CXCursor_BinaryOperator &&
               ast_binop(ast_strip(init)) == CXBinaryOperator_Assign) {
        char *f;
        var = vm_lvalue_target(vm, ast_child(ast_strip(init), 0), &f);
        if (f || clang_Cursor_isNull(var)) {
            free(f);
            return;
        }
        start = ast_child(ast_strip(init), 1);
    } else {
        return;
    }
    note_counter(vm, loop, var, start, inc);
}

/* var counts the iterations of loop from start, inc (++, --, +=, -=, <<=,
   >>= of var) stepping it. */
static void note_counter(struct value_model *vm, CXCursor loop, CXCursor var, CXCursor start, CXCursor inc)
{
    CXCursor step = clang_getNullCursor();
    enum CXBinaryOperatorKind op;
    enum CXCursorKind ik = clang_getCursorKind(inc);
    char *f = NULL;
    CXCursor target;
    if (ik == CXCursor_UnaryOperator && ast_unop_is_incdec(ast_unop(inc))) {
        enum CXUnaryOperatorKind u = ast_unop(inc);
        op = u == CXUnaryOperator_PostInc || u == CXUnaryOperator_PreInc ? CXBinaryOperator_Add : CXBinaryOperator_Sub;
        target = vm_lvalue_target(vm, ast_child(inc, 0), &f);
    } else if (ik == CXCursor_CompoundAssignOperator) {
        switch (ast_binop(inc)) {
        case CXBinaryOperator_AddAssign: op = CXBinaryOperator_Add; break;
        case CXBinaryOperator_SubAssign: op = CXBinaryOperator_Sub; break;
        case CXBinaryOperator_ShlAssign: op = CXBinaryOperator_Shl; break;
        case CXBinaryOperator_ShrAssign: op = CXBinaryOperator_Shr; break;
        case CXBinaryOperator_MulAssign: op = CXBinaryOperator_Mul; break;
        case CXBinaryOperator_DivAssign: op = CXBinaryOperator_Div; break;
        default: return;
        }
        target = vm_lvalue_target(vm, ast_child(inc, 0), &f);
        step = ast_child(inc, 1);
    } else {
        return;
    }
    bool same = !f && clang_equalCursors(target, var);
    free(f);
    if (!same) return;
    struct def *d = vm_def_get(vm, var, NULL, true);
    d->loop = loop;
    d->loop_init = start;
    d->step = step;
    d->step_op = op;
    d->inc = inc;
}

struct scan {
    struct value_model *vm;
};

static enum CXChildVisitResult scan_cb(CXCursor c, CXCursor parent, CXClientData data)
{
    struct value_model *vm = ((struct scan *)data)->vm;
    enum CXCursorKind k = clang_getCursorKind(c);
    switch (k) {
    case CXCursor_LambdaExpr:
        return CXChildVisit_Continue;
    case CXCursor_VarDecl: {
        if (!vm_is_local_var(vm, c)) break;
        struct def *d = vm_def_get(vm, c, NULL, true);
        d->has_init = vm_has_real_init(c, &d->init);
        CXType t = clang_getCursorType(c);
        if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference) {
            if (d->has_init) note_escape(vm, d->init);
            d->escaped = true;
        }
        break;
    }
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
    case CXCursor_CXXForRangeStmt:
        if (vm->n_loops == vm->cap_loops) {
            vm->cap_loops = vm->cap_loops ? 2 * vm->cap_loops : 8;
            vm->loops = xrealloc(vm->loops, vm->cap_loops * sizeof *vm->loops);
        }
        vm->loops[vm->n_loops++] = c;
        break;
    case CXCursor_IfStmt: {
        /* `if (cond) A [else B]`; not C++17's `if (init; cond)` or a
           condition variable. */
        CXCursor arm[4];
        unsigned n = ast_children(c, arm, 4);
        if ((n != 2 && n != 3) || !clang_isExpression(clang_getCursorKind(arm[0]))) break;
        if (vm->n_ifs == vm->cap_ifs) {
            vm->cap_ifs = vm->cap_ifs ? 2 * vm->cap_ifs : 8;
            vm->ifs = xrealloc(vm->ifs, vm->cap_ifs * sizeof *vm->ifs);
        }
        vm->ifs[vm->n_ifs++] = (struct if_arms){c, arm[0], arm[1], n == 3 ? arm[2] : clang_getNullCursor()};
        break;
    }
    case CXCursor_BinaryOperator:
        if (ast_binop(c) == CXBinaryOperator_Assign) {
            struct def *d = note_write(vm, ast_child(c, 0));
            if (d) {
                d->assign = c;
                d->assign_rhs = ast_child(c, 1);
                d->assign_block = clang_getCursorKind(parent) == CXCursor_CompoundStmt ? parent : clang_getNullCursor();
                if (d->n_sites <= DEF_MAX_SITES) {
                    unsigned i = d->n_sites - 1;
                    d->site_end[i] = vm_end_of(c);
                    d->site_rhs[i] = d->assign_rhs;
                    d->site_block[i] = d->assign_block;
                    d->site_stmt[i] = c;
                    d->site_parent[i] = parent;
                }
            }
        }
        break;
    case CXCursor_CompoundAssignOperator:
        note_write(vm, ast_child(c, 0));
        break;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = ast_unop(c);
        if (ast_unop_is_incdec(op)) note_write(vm, ast_child(c, 0));
        else if (op == CXUnaryOperator_AddrOf) note_escape(vm, ast_child(c, 0));
        break;
    }
    case CXCursor_CallExpr: {
        /* An argument bound to a reference is the variable itself.  A call
           that depends on a template parameter (a functor of the template's
           type, interp(rows, r, i)) has no parameters yet, so its arguments
           carry no conversions: an integer variable there is taken as passed
           by value, as such calls nearly always take it, rather than as
           written by the call. */
        CXCursor target = clang_getCursorReferenced(c);
        enum CXCursorKind tk = clang_getCursorKind(target);
        bool dependent = clang_getCursorType(c).kind == CXType_Dependent && tk != CXCursor_FunctionDecl &&
                         tk != CXCursor_CXXMethod && tk != CXCursor_FunctionTemplate;
        int n = clang_Cursor_getNumArguments(c);
        for (int i = 0; i < n; i++) {
            CXCursor arg = clang_Cursor_getArgument(c, (unsigned)i);
            enum CXCursorKind ak = clang_getCursorKind(arg);
            if (dependent && vm_type_integer(clang_getCursorType(arg))) continue;
            if (ak == CXCursor_DeclRefExpr || ak == CXCursor_MemberRefExpr) note_escape(vm, arg);
        }
        /* A member call may change its object. */
        CXCursor callee = ast_child(c, 0);
        if (clang_getCursorKind(callee) == CXCursor_MemberRefExpr) note_escape(vm, ast_child(callee, 0));
        break;
    }
    default:
        break;
    }
    clang_visitChildren(c, scan_cb, data);
    return CXChildVisit_Continue;
}

void vm_scan(struct value_model *vm)
{
    struct scan s = {vm};
    clang_visitChildren(vm->fn, scan_cb, &s);
    for (size_t i = 0; i < vm->n_loops; i++)
        if (clang_getCursorKind(vm->loops[i]) == CXCursor_ForStmt) note_loop(vm, vm->loops[i]);
        else if (clang_getCursorKind(vm->loops[i]) == CXCursor_WhileStmt) note_while_loop(vm, vm->loops[i]);
}

/* ---- which definition reaches a read ---- */

/* The innermost loop of the function holding c, or a null cursor. */
static CXCursor loop_of(struct value_model *vm, CXCursor c)
{
    CXCursor best = clang_getNullCursor();
    for (size_t i = 0; i < vm->n_loops; i++)
        if (ast_inside(vm->loops[i], c) && (clang_Cursor_isNull(best) || ast_inside(best, vm->loops[i])))
            best = vm->loops[i];
    return best;
}

/* May the definition at def_site be used for a read at use (the use follows
   it in the same loop, and nothing else writes the variable)? */
/* The plain assignment that reaches a read in straight-line code: the last
   write before the read, an assignment statement of a block holding the
   read, with no write between them and both in the same loop. */
CXCursor vm_straight_line_def(struct value_model *vm, const struct def *d, CXCursor use)
{
    if (d->n_sites > DEF_MAX_SITES) return clang_getNullCursor();
    unsigned u = vm_start_of(use);
    int best = -1;
    for (unsigned i = 0; i < d->n_sites; i++)
        if (d->site_end[i] <= u && (best < 0 || d->site_start[i] > d->site_start[best])) best = (int)i;
    if (best < 0 || clang_Cursor_isNull(d->site_rhs[best]) || clang_Cursor_isNull(d->site_block[best]) ||
        !ast_inside(d->site_block[best], use))
        return clang_getNullCursor();
    /* A write after the read inside a loop around both could reach it
       through the back edge. */
    CXCursor lu = loop_of(vm, use);
    for (unsigned i = 0; i < d->n_sites; i++)
        if (d->site_start[i] > u && !clang_Cursor_isNull(lu) && vm_start_of(lu) <= d->site_start[i] &&
            d->site_start[i] < vm_end_of(lu))
            return clang_getNullCursor();
    if (!clang_Cursor_isNull(lu) && vm_start_of(lu) > d->site_start[best]) return clang_getNullCursor();
    return d->site_rhs[best];
}

bool vm_assignment_reaches(struct value_model *vm, const struct def *d, CXCursor use)
{
    if (clang_Cursor_isNull(d->assign) || vm_start_of(use) <= vm_end_of(d->assign)) return false;
    CXCursor la = loop_of(vm, d->assign), lu = loop_of(vm, use);
    if (clang_Cursor_isNull(la) != clang_Cursor_isNull(lu)) return false;
    if (!clang_Cursor_isNull(la) && !clang_equalCursors(la, lu)) return false;
    if (!clang_Cursor_isNull(d->assign_block) && ast_inside(d->assign_block, use)) return true;
    /* Under control the same in every thread: all of them assigned, or none
       did (and the read is of an unset variable). */
    return vm->u && !uniformity_control_varies(vm->u, d->assign, NULL);
}

/* Which arm of an if statement an assignment is, as a statement of its own:
   1 the then arm, -1 the else arm, 0 neither (then *which is untouched). */
int vm_arm_holding(struct value_model *vm, const struct def *d, unsigned site, const struct if_arms **which)
{
    CXCursor parent = d->site_parent[site], stmt = d->site_stmt[site];
    if (clang_Cursor_isNull(stmt)) return 0;
    /* The arm is the block holding the assignment, or the assignment itself. */
    CXCursor arm = clang_getCursorKind(parent) == CXCursor_CompoundStmt ? parent : stmt;
    for (size_t i = 0; i < vm->n_ifs; i++) {
        const struct if_arms *f = &vm->ifs[i];
        int side = clang_equalCursors(f->then_arm, arm) ? 1
                   : !clang_Cursor_isNull(f->else_arm) && clang_equalCursors(f->else_arm, arm) ? -1 : 0;
        if (side) {
            *which = f;
            return side;
        }
    }
    return 0;
}

/* Is stmt run whenever `from` is, as far as branches go: no if statement and
   no loop holds stmt without holding `from` too? */
bool vm_runs_with(struct value_model *vm, CXCursor stmt, CXCursor from)
{
    for (size_t i = 0; i < vm->n_ifs; i++)
        if (ast_inside(vm->ifs[i].stmt, stmt) && !ast_inside(vm->ifs[i].stmt, from)) return false;
    CXCursor ls = loop_of(vm, stmt), lf = loop_of(vm, from);
    return clang_Cursor_isNull(ls) == clang_Cursor_isNull(lf) && (clang_Cursor_isNull(ls) || clang_equalCursors(ls, lf));
}
