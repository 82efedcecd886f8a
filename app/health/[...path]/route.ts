export { DELETE, GET, HEAD, PATCH, POST, PUT } from "../../api/[...path]/route";
