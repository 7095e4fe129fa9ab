// /admin: user management is the administration home.
import { redirect } from "next/navigation";

export default function AdminPage() {
  redirect("/admin/users");
}
